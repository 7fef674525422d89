import { Command } from 'commander';
import type { Io } from '../../io.js';
import { runAction } from '../../runAction.js';

/**
 * Declares `labelkit demo`: runs `runDemo` (emulator + sample model + a job) and exits with its code.
 *
 * @param io - the process
 * @param done - receives the demo's exit code (0 when the job was DELIVERED)
 * @returns the command
 * @remarks The runner and its wording are `src/demo` (`runDemo`), shared with `npm run demo`.
 */
export function demoCommand(io: Io, done: (code: number) => void): Command {
  return new Command('demo')
    .description('run the whole flow locally: emulator, sample model, label sets, an auto-labeling job')
    .option('--json', 'print {"exitCode","lines"} as one JSON object at the end')
    .option('--verbose', 'the stack of an unexpected error')
    .addHelpText('after', '\nExample:\n  $ labelkit demo')
    .action(async (flags: { json?: boolean; verbose?: boolean }) => {
      done(
        await runAction(io, flags, async (context) => {
          const { runDemo } = await import('../../../demo/index.js');
          if (!flags.json) return runDemo({ out: (line) => context.printer.out(line) });
          const lines: string[] = [];
          const exitCode = await runDemo({ out: (line) => lines.push(line) });
          context.printer.json({ exitCode, lines });
          return exitCode;
        }),
      );
    });
}
