import { Command } from 'commander';
import { EXIT } from '../../exitCodes.js';
import type { Io } from '../../io.js';
import { commandAction } from '../../runAction.js';
import type { CommonFlags } from '../../runAction.js';
import { untilAborted } from '../../serverFlags.js';
import type { EmulatorFlags } from './runner.js';

/**
 * Declares `labelkit emulator`: runs the local emulator until Ctrl-C.
 *
 * @param io - the process
 * @param done - receives the exit code (0 after a clean stop)
 * @returns the command
 */
export function emulatorCommand(io: Io, done: (code: number) => void): Command {
  return new Command('emulator')
    .description('run the local emulator of the labeling service until Ctrl-C')
    .option('--port <n>', 'port to listen on (0: a free one)', '4000')
    .option('--host <address>', 'address to listen on', '127.0.0.1')
    .option('--data <dir>', 'load projects from a data folder (besides demo-project)')
    .option('--demo-projects <n>', 'also hold N small demo projects, demo-project-1 … demo-project-N (try auto-label over many projects)')
    .option('--client-id <id>', 'client id accepted at /api/oauth/token (default: generated)')
    .option('--client-secret-env <VAR>', 'environment variable holding the client secret (default: generated)')
    .option('--schema-generation <generation>', "schema to speak: tags (today's production: tagItems, tagName) or labels (after the rename)", 'tags')
    .option('--cors-origin <origin>', 'also let browser pages on this origin call the emulator, e.g. https://app.example:8443 (repeatable; loopback origins are always allowed)', (value: string, previous: string[] = []) => [...previous, value])
    .option('--model-timeout <duration>', 'how long a job waits for one answer of the model before the request counts as failed (and is tried again): 30s, 2m or milliseconds (default 30s; 100ms to 10m)')
    .option('--json', 'print {"url","baseUrl","token","clientId","tokenUrl","schemaGeneration"} as one JSON line')
    .option('--verbose', 'log each request and job event to stderr')
    .addHelpText('after', '\nExample:\n  $ labelkit emulator --port 4000\n  $ labelkit emulator --port 4000 --cors-origin http://my-app.test:8080\n  $ labelkit emulator --port 4000 --demo-projects 1000   # then: seq -f "demo-project-%g" 1000 > projects.txt\n  $ labelkit emulator --port 4000 --schema-generation labels   # as the service will be after its rename\n  $ labelkit emulator --port 4000 --model-timeout 2m   # a slow model: each request may take up to 2 minutes\n  $ export LABELKIT_URL=http://127.0.0.1:4000/graphql LABELKIT_TOKEN=…   # as printed')
    .action(
      commandAction(io, done, {}, async (flags: EmulatorFlags & CommonFlags, context) => {
        const { demoProjectCount, runEmulator } = await import('./runner.js');
        const { printEmulatorStarted } = await import('./print.js');
        const emu = await runEmulator(flags, context);
        printEmulatorStarted(context.printer, emu, {
          json: flags.json === true,
          ...(flags.clientSecretEnv && { clientSecretEnv: flags.clientSecretEnv }),
          demoProjects: demoProjectCount(flags.demoProjects),
          ...(flags.data !== undefined && { dataDir: flags.data }),
        });
        await untilAborted(context.signal);
        await emu.close();
        if (!flags.json) context.printer.err('labelkit: emulator stopped');
        return EXIT.ok;
      }),
    );
}
