import { Command, CommanderError } from 'commander';
import { VERSION } from '../client/version.js';

/** Exit codes of the `labelkit` command (see docs/CONTRACTS.md). */
export const EXIT = { ok: 0, unexpected: 1, usage: 2, auth: 3, network: 4, jobFailed: 5, jobTimedOut: 6, jobNotFound: 7, interrupted: 130 } as const;

/** Waits for Ctrl-C (or SIGTERM), then runs `stop`. */
function untilInterrupted(stop: () => Promise<void>): Promise<number> {
  return new Promise((resolve) => {
    const onSignal = () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      void stop().then(() => resolve(EXIT.ok));
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new CommanderError(EXIT.usage, 'labelkit.port', `--port must be an integer from 0 to 65535, got ${value}`);
  return n;
}

/**
 * Runs the `labelkit` command line.
 *
 * @param argv - process.argv
 * @returns the exit code
 * @remarks Heavy modules (the emulator, the model kit) load lazily inside the commands that use them.
 */
export async function main(argv: string[]): Promise<number> {
  let code: number = EXIT.ok;
  const program = new Command('labelkit')
    .description('Client, emulator and model kit for the labeling service')
    .version(VERSION)
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });

  program
    .command('demo')
    .description('run the whole flow locally: emulator, sample model, label sets, an auto-labeling job')
    .addHelpText('after', '\nExample:\n  $ labelkit demo')
    .action(async () => {
      const { runDemo } = await import('../demo/index.js');
      code = await runDemo();
    });

  program
    .command('emulator')
    .description('run the local emulator of the labeling service until Ctrl-C')
    .option('--port <n>', 'port to listen on (0: a free one)', port, 4000)
    .option('--host <address>', 'address to listen on', '127.0.0.1')
    .option('--client-id <id>', 'client id accepted at /api/oauth/token')
    .option('--client-secret-env <VAR>', 'environment variable holding the client secret')
    .addHelpText('after', '\nExample:\n  $ labelkit emulator --port 4000')
    .action(async (opts: { port: number; host: string; clientId?: string; clientSecretEnv?: string }) => {
      const { startEmulator } = await import('../emulator/index.js');
      const clientSecret = opts.clientSecretEnv ? process.env[opts.clientSecretEnv] : undefined;
      if (opts.clientSecretEnv && !clientSecret) {
        process.stderr.write(`labelkit: ${opts.clientSecretEnv} is not set (hint: export ${opts.clientSecretEnv}=…)\n`);
        code = EXIT.usage;
        return;
      }
      const emu = await startEmulator({
        port: opts.port,
        host: opts.host,
        ...(opts.clientId && { clientId: opts.clientId }),
        ...(clientSecret && { clientSecret }),
      });
      // The emulator's token is a random local test token, valid only for this process.
      process.stdout.write(
        `labelkit emulator listening on ${emu.url}\n` +
          `  export LABELKIT_URL=${emu.url}\n` +
          `  export LABELKIT_TOKEN=${emu.token}   # a local test token of this emulator only\n` +
          `  client credentials: client id ${emu.clientId}${clientSecret ? ' (secret from ' + opts.clientSecretEnv + ')' : ''}\n` +
          `  demo project: demo-project. Ctrl-C stops.\n`,
      );
      code = await untilInterrupted(emu.close);
    });

  program
    .command('model')
    .description('run the sample gazetteer model endpoint until Ctrl-C')
    .option('--port <n>', 'port to listen on (0: a free one)', port, 0)
    .option('--secret-key-env <VAR>', 'environment variable holding the secret key', 'LABELKIT_MODEL_SECRET')
    .addHelpText('after', '\nExample:\n  $ LABELKIT_MODEL_SECRET=local-secret labelkit model --port 5000')
    .action(async (opts: { port: number; secretKeyEnv: string }) => {
      const secretKey = process.env[opts.secretKeyEnv];
      if (!secretKey) {
        process.stderr.write(`labelkit: no secret key (hint: export ${opts.secretKeyEnv}=…)\n`);
        code = EXIT.usage;
        return;
      }
      const { startModelServer } = await import('../model/index.js');
      const model = await startModelServer({ port: opts.port, secretKey });
      process.stdout.write(`labelkit sample model listening on ${model.url} (secret from ${opts.secretKeyEnv}). Ctrl-C stops.\n`);
      code = await untilInterrupted(model.close);
    });

  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    process.stderr.write(`labelkit: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.unexpected;
  }
  return code;
}
