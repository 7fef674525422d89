import { Command } from 'commander';
import { EXIT } from '../../exitCodes.js';
import type { Io } from '../../io.js';
import { commandAction } from '../../runAction.js';
import type { CommonFlags } from '../../runAction.js';
import { listenError, parsePort, untilAborted } from '../../serverFlags.js';
import { CliUsageError } from '../../usageError.js';
import type { UsageProblem } from '../../usageError.js';
import { modelCheckCommand } from './checkCommand.js';

interface ModelFlags extends CommonFlags {
  port: string;
  host: string;
  secretKeyEnv: string;
}

/**
 * Declares `labelkit model`: serves the sample gazetteer model until Ctrl-C; and its
 * subcommand `labelkit model check <URL>`.
 *
 * @param io - the process
 * @param done - receives the exit code
 * @returns the command
 * @remarks The runner is `startModelServer` of the model kit and the wording is two lines, so
 * this command has no runner or logger file of its own.
 */
export function modelCommand(io: Io, done: (code: number) => void): Command {
  const command = new Command('model')
    .description('run the sample gazetteer model endpoint until Ctrl-C (see also: model check)')
    .option('--port <n>', 'port to listen on (0: a free one)', '0')
    .option('--host <address>', 'address to listen on', '127.0.0.1')
    .option('--secret-key-env <VAR>', 'environment variable holding the secret key', 'LABELKIT_MODEL_SECRET')
    .option('--json', 'print {"url"} as one JSON line')
    .option('--verbose', 'details, and the stack of an error')
    .addHelpText('after', '\nExample:\n  $ export LABELKIT_MODEL_SECRET=local-secret\n  $ labelkit model --port 5000')
    .action(
      commandAction(io, done, { command: 'model', service: false }, async (flags: ModelFlags, context) => {
        const problems: UsageProblem[] = [];
        const port = parsePort(flags.port, problems);
        const secretKey = io.env[flags.secretKeyEnv]?.trim();
        // The remedy goes with its own problem: a bad --port alone must not send the user to the secret.
        if (!secretKey) {
          problems.push({ field: flags.secretKeyEnv, message: `not set: export ${flags.secretKeyEnv}=… (the secret key the model will require), or name another variable with --secret-key-env` });
        }
        if (problems.length > 0) throw new CliUsageError(problems);
        context.printer.addSecret(secretKey);
        const { startModelServer } = await import('labelkit/model');
        let model;
        try {
          model = await startModelServer({ port, host: flags.host, secretKey: secretKey! });
        } catch (error) {
          throw listenError(error, { port, host: flags.host });
        }
        if (flags.json) context.printer.json({ url: model.url });
        else {
          const { own } = await import('../../../shared/redact.js');
          context.printer.out(own`labelkit sample model listening on ${model.url} (secret from ${flags.secretKeyEnv}). Ctrl-C stops.`);
        }
        await untilAborted(context.signal);
        await model.close();
        return EXIT.ok;
      }),
    );
  // `model check … --json` is check's flag, not model's: options belong to the command they follow.
  command.enablePositionalOptions().addCommand(modelCheckCommand(io, done));
  return command;
}
