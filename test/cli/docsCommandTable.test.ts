// docs/cli.md's tables are checked against the CLI program itself (buildProgram, the commands and
// options commander parses), read when the test runs: a command added to the program needs its row
// in "Commands", a flag its place in that row's synopsis, and a flag a row names must exist on the
// commands the row is about (the "Connecting to the service" table included).
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/main.js';
import { headings, readDoc } from '../support/docs.js';
import { fakeIo } from '../support/fakeIo.js';

const PAGE = 'docs/cli.md';

/** Every command of the program by its path (`model check`), with its long options. */
function programCommands(): Map<string, Command> {
  const found = new Map<string, Command>();
  const walk = (command: Command, path: string) => {
    found.set(path, command);
    for (const sub of command.commands) walk(sub, `${path} ${sub.name()}`);
  };
  for (const command of buildProgram(fakeIo(), () => undefined).commands) walk(command, command.name());
  return found;
}

const longFlags = (command: Command): string[] => command.options.flatMap((o) => (o.long ? [o.long] : []));

/** A group such as `schema`: it only holds subcommands (no option of its own, so nothing to run). */
const isGroup = (command: Command) => command.commands.length > 0 && command.options.length === 0;

/** The rows of the first table under a `##` heading of the page: cells, `\|` unescaped. */
function tableRows(heading: string): { line: number; cells: string[] }[] {
  const markdown = readDoc(PAGE);
  const all = headings(markdown);
  const at = all.find((h) => h.text === heading);
  if (!at) throw new Error(`${PAGE} has no heading "${heading}"`);
  const end = all.find((h) => h.line > at.line && h.level <= at.level)?.line ?? Number.POSITIVE_INFINITY;
  const lines = markdown.split('\n');
  const rows: { line: number; cells: string[] }[] = [];
  for (let i = at.line; i < Math.min(end - 1, lines.length); i++) {
    const text = lines[i]!;
    if (!text.startsWith('|')) {
      if (rows.length > 0) break;
      continue;
    }
    const cells = text
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((c) => c.trim().replace(/\\\|/g, '|'));
    if (cells.every((c) => /^:?-+:?$/.test(c))) continue;
    rows.push({ line: i + 1, cells });
  }
  return rows.slice(1); // the header
}

const flagsIn = (text: string) => [...new Set([...text.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map((m) => m[0]))];
const codeSpans = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

// Flags every command that talks to the service has ("Connecting to the service"), and the ones every
// command has (the page's opening: --help, --json, --verbose): a row's synopsis may leave them out.
const CONNECTION = ['--url', '--token-file', '--token-stdin', '--token', '--client-id', '--client-secret-file', '--retries'];
const EVERY_COMMAND = ['--help', '--json', '--verbose'];

describe(`${PAGE}, checked against the CLI program`, () => {
  const commands = programCommands();
  const paths = [...commands.keys()].sort((a, b) => b.length - a.length); // `model check` before `model`
  const commandOf = (synopsis: string) => paths.find((p) => synopsis === p || synopsis.startsWith(`${p} `));

  it('has a "Commands" row for every command of the program, and none for a command it does not have', () => {
    const rows = tableRows('Commands');
    expect(rows.length).toBeGreaterThan(5);
    const documented = rows.map(({ line, cells }) => ({ line, path: commandOf(codeSpans(cells[0]!)[0] ?? ''), first: cells[0]! }));
    for (const row of documented) expect(row.path, `${PAGE}:${row.line}: a row for no command of the program: ${row.first}`).toBeDefined();
    const runnable = [...commands].filter(([, command]) => !isGroup(command)).map(([path]) => path);
    const missing = runnable.filter((path) => !documented.some((row) => row.path === path));
    expect(missing, `commands of the program without a row in ${PAGE} "Commands"`).toEqual([]);
  });

  it('names in each command\'s rows exactly the flags the command has (but the connection flags, --json and --verbose)', () => {
    const byCommand = new Map<string, Set<string>>();
    for (const { line, cells } of tableRows('Commands')) {
      const synopsis = codeSpans(cells[0]!)[0] ?? '';
      const path = commandOf(synopsis);
      if (!path) continue; // the test above names it
      const has = longFlags(commands.get(path)!);
      // A flag of the synopsis must be one the command parses: the page must not promise a flag that says "unknown option".
      const unknown = flagsIn(cells[0]!).filter((flag) => !has.includes(flag));
      expect(unknown, `${PAGE}:${line}: flags of \`${path}\` that the command does not have`).toEqual([]);
      const seen = byCommand.get(path) ?? new Set<string>();
      for (const flag of flagsIn(cells[0]!)) seen.add(flag);
      byCommand.set(path, seen);
    }
    for (const [path, seen] of byCommand) {
      const left = longFlags(commands.get(path)!).filter((flag) => !seen.has(flag) && !CONNECTION.includes(flag) && !EVERY_COMMAND.includes(flag));
      expect(left, `flags of \`${path}\` that its row in ${PAGE} "Commands" does not name`).toEqual([]);
    }
  });

  it('promises a flag of "Connecting to the service" only on commands that have it', () => {
    const rows = tableRows('Connecting to the service');
    expect(rows.length).toBeGreaterThan(2);
    const connecting = [...commands].filter(([, c]) => longFlags(c).includes('--url')).map(([path]) => path);
    expect(connecting.length).toBeGreaterThan(5);
    for (const { line, cells } of rows) {
      // A row about some commands names them in its first cell (`auto-label`, `model check`); else it is about every command that connects.
      const named = codeSpans(cells[0]!).filter((span) => commands.has(span));
      const about = named.length > 0 ? named : connecting;
      for (const path of about) {
        const unknown = flagsIn(cells[1]!).filter((flag) => !longFlags(commands.get(path)!).includes(flag));
        expect(unknown, `${PAGE}:${line}: flags the row promises for \`${path}\` that it does not have`).toEqual([]);
      }
    }
  });
});
