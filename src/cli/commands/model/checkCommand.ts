import { Command } from 'commander';
import { EXIT } from '../../exitCodes.js';
import { useColor } from '../../io.js';
import type { Io } from '../../io.js';
import { commandAction } from '../../runAction.js';
import type { CommonFlags } from '../../runAction.js';
import type { ModelCheckFlags } from '../../checks/modelEndpoint.js';

/**
 * Declares `labelkit model check <URL>`: tests a model endpoint before the service calls it.
 *
 * @param io - the process
 * @param done - receives the exit code: 0 every answer valid, 1 an answer broke the contract,
 * 2 bad flags, 4 the endpoint could not be reached
 * @returns the command
 */
export function modelCheckCommand(io: Io, done: (code: number) => void): Command {
  return new Command('check')
    .description('send span-contract requests of several batch sizes to a model endpoint, validate every answer, show latency')
    .argument('<url>', 'the model endpoint')
    .option('--secret-key-env <VAR>', 'environment variable holding the secret key', 'LABELKIT_MODEL_SECRET')
    .option('--sizes <list>', 'lines per request, comma-separated', '1,10,100')
    .option('--timeout <duration>', 'per request: 90s, 10m, 1h or milliseconds (default 30s)')
    .option('--allow-insecure-endpoint', 'accept plain http on a non-loopback host')
    .option('--json', 'print the result as one JSON object')
    .option('--verbose', 'details, and the stack of an error')
    .addHelpText(
      'after',
      '\nExit: 0 every answer valid, 1 some answer broke the contract, 4 unreachable.\n' +
        '\nExample:\n  $ export LABELKIT_MODEL_SECRET=local-secret\n  $ labelkit model check http://127.0.0.1:5000/ --sizes 1,10,100',
    )
    .action(
      commandAction(io, done, { command: 'model check', target: { what: 'the model', url: 'the <url> argument' } }, async (flags: ModelCheckFlags & CommonFlags, context, url: string) => {
        const { runModelCheck } = await import('../../checks/modelEndpoint.js');
        const { printModelCheck } = await import('./checkPrint.js');
        const result = await runModelCheck(url, flags, context);
        printModelCheck(context.printer, result, { json: flags.json === true, color: useColor(io, io.stdout) });
        return result.valid ? EXIT.ok : EXIT.unexpected;
      }),
    );
}
