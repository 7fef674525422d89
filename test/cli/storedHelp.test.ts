import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Command } from 'commander';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram, main } from '../../src/cli/main.js';
import type { StoredHelp } from '../../src/cli/storedHelp.js';
import * as renderer from '../../src/cli/storedHelp.js';
import { argv, fakeIo } from './fakeIo.js';
import { runCli } from './spawnCli.js';

// The bin shim prints the help `npm run build` captured (packages/labelkit-tools/dist/help.js)
// for help argv, without loading commander. These tests hold it to commander's own output: the
// live program (src/cli/main.ts, as `labelkit` runs it) against the stored help, byte for byte,
// for every help argv and at every terminal width where wrapping can differ.
const HELP_JS = join(import.meta.dirname, '..', '..', 'packages', 'labelkit-tools', 'dist', 'help.js');
let stored: StoredHelp;
let render: typeof renderer.storedHelp;

beforeAll(async () => {
  if (!existsSync(HELP_JS)) throw new Error(`no ${HELP_JS}: run npm run build first (npm test builds before vitest runs)`);
  const built = (await import(pathToFileURL(HELP_JS).href)) as typeof renderer & { STORED_HELP: StoredHelp };
  stored = built.STORED_HELP;
  render = built.storedHelp;
});

// commander reads the help width from process.stdout itself (isTTY, columns): the live side sets
// them as a terminal of that width would, and puts them back.
const stdoutDescriptors = { isTTY: Object.getOwnPropertyDescriptor(process.stdout, 'isTTY'), columns: Object.getOwnPropertyDescriptor(process.stdout, 'columns') };
afterEach(() => {
  for (const [key, descriptor] of Object.entries(stdoutDescriptors)) {
    if (descriptor) Object.defineProperty(process.stdout, key, descriptor);
    else delete (process.stdout as unknown as Record<string, unknown>)[key];
  }
});

/** A terminal of `columns` (or a pipe: undefined), as process.stdout. */
function stdoutAs(columns: number | undefined): void {
  Object.defineProperty(process.stdout, 'isTTY', { value: columns !== undefined, configurable: true, writable: true });
  Object.defineProperty(process.stdout, 'columns', { value: columns, configurable: true, writable: true });
}

/** What the live program prints for `labelkit …args` on the current process.stdout. */
async function live(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = fakeIo();
  const code = await main(argv(...args), io);
  return { code, out: io.out(), err: io.err() };
}

/** Every command's path (`[]` is the program itself), from the live program. */
function commandPaths(): string[][] {
  const paths: string[][] = [];
  const walk = (command: Command, path: string[]) => {
    paths.push(path);
    for (const sub of command.commands) walk(sub, [...path, sub.name()]);
  };
  walk(buildProgram(fakeIo(), () => {}), []);
  return paths;
}

/** The widest line of a text: past it, no width wraps anything. */
const widest = (text: string) => Math.max(...text.split('\n').map((line) => line.length));

describe('stored help (dist/help.js)', () => {
  it('holds --help and -h of every command, and help <command> where commander has a help command', () => {
    const expected = commandPaths().flatMap((path) => [JSON.stringify([...path, '--help']), JSON.stringify([...path, '-h'])]);
    expect(Object.keys(stored.argv)).toEqual(expect.arrayContaining(expected));
    expect(Object.keys(stored.argv)).toEqual(expect.arrayContaining(['["help"]', '["help","cabinet"]', '["help","label-sets"]', '["schema","help","check"]']));
    expect(commandPaths().length).toBeGreaterThanOrEqual(13);
  });

  it('is byte-identical to commander for every stored help argv when stdout is not a terminal (width 80)', async () => {
    stdoutAs(undefined);
    for (const key of Object.keys(stored.argv)) {
      const args = JSON.parse(key) as string[];
      const actual = await live(args);
      expect({ args, code: actual.code, err: actual.err }).toEqual({ args, code: 0, err: '' });
      expect(render(stored, args, renderer.helpWidthOf(process.stdout)), key).toBe(actual.out);
    }
  });

  it('is byte-identical to commander for every command at every terminal width from 1 to past its widest line', async () => {
    let compared = 0;
    for (const path of commandPaths()) {
      const args = [...path, '--help'];
      stdoutAs(10_000);
      const last = widest((await live(args)).out) + 2;
      for (let columns = 1; columns <= last; columns++) {
        stdoutAs(columns);
        const actual = await live(args);
        const mine = render(stored, args, renderer.helpWidthOf(process.stdout));
        if (mine !== actual.out) expect(mine, `${args.join(' ')} at ${columns} columns`).toBe(actual.out);
        compared++;
      }
    }
    // 13 commands, each at about 100-190 widths.
    expect(compared).toBeGreaterThan(13 * 100);
  });

  it('is byte-identical to commander for every stored help argv at the widths around the wrap limits', async () => {
    for (const columns of [20, 39, 40, 41, 60, 79, 81, 100, 120, 160, 240]) {
      stdoutAs(columns);
      for (const key of Object.keys(stored.argv)) {
        const args = JSON.parse(key) as string[];
        expect(render(stored, args, columns), `${key} at ${columns} columns`).toBe((await live(args)).out);
      }
    }
  });

  it('answers nothing for argv that are not a stored help shape, so the full CLI runs', () => {
    for (const args of [[], ['--version'], ['cabinet'], ['--help', 'cabinet'], ['cabinet', '--help', '--json'], ['help', 'nosuch'], ['label-sets', 'help', 'plan'], ['nosuch', '--help'], ['toString'], ['__proto__']]) {
      expect(render(stored, args, 80), JSON.stringify(args)).toBeUndefined();
    }
  });
});

describe('bin/labelkit.js', () => {
  it('prints the stored help with exit 0 for help argv, as the full CLI does, and runs the CLI for any other argv', async () => {
    stdoutAs(undefined);
    for (const args of [['--help'], ['-h'], ['help'], ['help', 'jobs'], ['label-sets', 'plan', '--help'], ['schema', 'help', 'check']]) {
      const run = await runCli(args);
      const expected = await live(args);
      expect({ args, ...run }, args.join(' ')).toEqual({ args, code: 0, stdout: expected.out, stderr: '' });
    }
    // Not stored help shapes: the full CLI answers, as in process.
    for (const args of [['nosuch', '--help'], ['label-sets', 'help', 'plan'], ['--version'], ['cabinet']]) {
      const run = await runCli(args);
      const expected = await live(args);
      expect({ args, ...run }, args.join(' ')).toEqual({ args, code: expected.code, stdout: expected.out, stderr: expected.err });
    }
  });
});
