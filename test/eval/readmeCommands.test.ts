// The commands of docs/evaluation.md ("How good is my model?") run as printed: the demo with --keep in process,
// then each `labelkit …` line of the section's shell block after it through the CLI, with the two
// export lines the demo printed as the environment. (test/build/readmeShellBlocks.test.ts runs the
// same block in bash, as a user pastes it.)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { EXIT } from '../../src/cli/exitCodes.js';
import type { EvalReport } from '../../src/eval/index.js';
import { argv, fakeIo } from '../support/fakeIo.js';
import { docSection } from '../support/docs.js';

const section = docSection('How good is my model?').text;
const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
const sample = /```text\n([\s\S]*?)```/.exec(section)![1]!;
const markdownSample = /```markdown\n([\s\S]*?)```/.exec(section)?.[1];

/** `labelkit a b "c d"` → ['a', 'b', 'c d'], and where stdout goes (`> file`), and the shell's tail. */
function parse(line: string): { args: string[]; redirect?: string; echoesExit: boolean } {
  const echoesExit = /(;|\|\|)\s*echo "exit \$\?"\s*$/.test(line);
  let command = line.replace(/(;|\|\|)\s*echo "exit \$\?"\s*$/, '');
  const redirect = /\s>\s*(\S+)\s*$/.exec(command)?.[1];
  command = command.replace(/\s>\s*\S+\s*$/, '');
  const args = [...command.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!).slice(1);
  return { args, ...(redirect && { redirect }), echoesExit };
}

describe('docs/evaluation.md: How good is my model?', () => {
  it('runs the demo with --keep, then every labelkit command of the section as printed', async () => {
    expect(blocks[0]).toContain('labelkit demo --keep');
    const lines = blocks[0]!.split('\n').filter((l) => l.startsWith('labelkit ') && !l.startsWith('labelkit demo'));
    expect(lines.length).toBeGreaterThanOrEqual(5);
    const demoIo = fakeIo();
    const demo = main(argv('demo', '--keep'), demoIo);
    // A line's `> file` is written here, and a later line naming that file reads it from here.
    const dir = mkdtempSync(join(tmpdir(), 'labelkit-readme-eval-'));
    const written = new Map<string, string>();
    let markdownSeen = false;
    try {
      await vi.waitFor(() => expect(demoIo.out()).toContain('export LABELKIT_TOKEN='), { timeout: 30_000, interval: 50 });
      const env = Object.fromEntries([...demoIo.out().matchAll(/^ {2}export (LABELKIT_URL|LABELKIT_TOKEN)=(\S+)/gm)].map((m) => [m[1]!, m[2]!]));
      expect(Object.keys(env).sort()).toEqual(['LABELKIT_TOKEN', 'LABELKIT_URL']);
      for (const line of lines) {
        const { args: typed, redirect, echoesExit } = parse(line);
        const args = typed.map((a) => written.get(a) ?? a);
        const io = fakeIo(env);
        const code = await main(argv(...args), io);
        if (redirect) {
          written.set(redirect, join(dir, redirect));
          writeFileSync(join(dir, redirect), io.out());
        }
        // The markdown the section shows is this command's, as it is.
        if (args.includes('markdown')) {
          markdownSeen = true;
          expect(`$ ${line}\n${io.out()}`).toBe(markdownSample);
        }
        // The last line shows the CI gate: the demo model is not that good.
        expect({ line, code, err: code === 0 ? io.err().replace(/^labelkit: \d+ labels?\n$/, '') : '' }).toEqual({ line, code: echoesExit ? EXIT.f1BelowThreshold : 0, err: '' });
        if (args.includes('--json') && args[0] === 'eval') {
          const report = JSON.parse(io.out()) as EvalReport;
          expect(report.micro.gold).toBeGreaterThan(0);
          expect(report.micro.tp).toBeGreaterThan(0);
        }
        if (args[0] === 'eval' && !args.includes('--json') && !args.includes('markdown')) expect(io.out()).toMatch(/^micro avg /m);
        // The output the section prints is the first command's, as it is.
        if (line === lines[0]) expect(`$ ${line}\n${io.out()}`).toBe(sample);
      }
      expect(markdownSeen).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      demoIo.interrupt();
      expect(await demo).toBe(0);
    }
  }, 60_000);
});
