import { Command } from 'commander';
import type { Io } from '../../io.js';
import { commandAction } from '../../runAction.js';
import { CliUsageError } from '../../usageError.js';

/**
 * Declares `labelkit demo`: runs `runDemo` (emulator + sample model + a job) and exits with its code.
 *
 * @param io - the process
 * @param done - receives the demo's exit code (0 when the job was DELIVERED)
 * @returns the command
 * @remarks The runner and its wording are `src/demo` (`runDemo`), shared with `npm run demo`.
 * `--keep` keeps the emulator up after the job (until Ctrl-C) so the printed results URL can be opened.
 */
export function demoCommand(io: Io, done: (code: number) => void): Command {
  return new Command('demo')
    .description('run the whole flow locally: emulator, sample model, label sets, an auto-labeling job')
    .option('--keep', 'keep the emulator and the model running after the job, so the results page can be opened; Ctrl-C stops')
    .option('--json', 'print {"exitCode","lines"} as one JSON object at the end')
    .option('--verbose', 'the stack of an unexpected error')
    .addHelpText('after', '\nExample:\n  $ labelkit demo\n  $ labelkit demo --keep   # then open the printed results URL')
    .action(
      commandAction(io, done, { command: 'demo', service: false }, async (flags: { json?: boolean; verbose?: boolean; keep?: boolean }, context) => {
        const { runDemo } = await import('../../../demo/index.js');
        if (flags.keep && flags.json) {
          // --json prints once, at the end; with --keep the end is Ctrl-C, so the URL would come too late.
          throw new CliUsageError([{ field: '--keep', message: 'cannot be combined with --json (the JSON is printed only when the demo ends)' }], 'labelkit demo --keep');
        }
        const keep = flags.keep ? { keepUntil: context.signal } : {};
        if (!flags.json) return runDemo({ out: (line) => context.printer.out(line), ...keep });
        const lines: string[] = [];
        const exitCode = await runDemo({ out: (line) => lines.push(line), ...keep });
        context.printer.json({ exitCode, lines });
        return exitCode;
      }),
    );
}
