import { EmulatorDataError, startEmulator } from '../../../emulator/index.js';
import type { RunningEmulator } from '../../../emulator/index.js';
import type { ActionContext } from '../../runAction.js';
import { parsePort } from '../../serverFlags.js';
import { CliUsageError } from '../../usageError.js';
import type { UsageProblem } from '../../usageError.js';

/** Flags of `labelkit emulator`. */
export interface EmulatorFlags {
  port: string | number;
  host: string;
  data?: string;
  clientId?: string;
  clientSecretEnv?: string;
  /** `tags` or `labels`. @defaultValue 'tags' */
  schemaGeneration?: string;
  verbose?: boolean;
}

/**
 * Starts the emulator from the flags.
 *
 * @param flags - port, host, data folder, client id, the variable with the client secret, the
 * schema generation
 * @param context - the run (environment; the client secret is registered for redaction)
 * @returns the running emulator
 * @throws {@link CliUsageError} for bad flags, an unset variable, or a bad data folder (every
 * problem with file and line)
 */
export async function runEmulator(flags: EmulatorFlags, context: ActionContext): Promise<RunningEmulator> {
  const problems: UsageProblem[] = [];
  const port = parsePort(flags.port, problems);
  let clientSecret: string | undefined;
  if (flags.clientSecretEnv !== undefined) {
    clientSecret = context.io.env[flags.clientSecretEnv]?.trim() || undefined;
    if (!clientSecret) problems.push({ field: '--client-secret-env', message: `${flags.clientSecretEnv} is not set: export ${flags.clientSecretEnv}=…` });
  }
  const schemaGeneration = flags.schemaGeneration;
  if (schemaGeneration !== undefined && schemaGeneration !== 'tags' && schemaGeneration !== 'labels') {
    problems.push({ field: '--schema-generation', message: "must be tags (today's production) or labels (after the rename)" });
  }
  context.printer.addSecret(clientSecret);
  if (problems.length > 0) throw new CliUsageError(problems, 'labelkit emulator --help');
  try {
    return await startEmulator({
      port,
      host: flags.host,
      ...(schemaGeneration !== undefined && { schemaGeneration: schemaGeneration as 'tags' | 'labels' }),
      ...(flags.data !== undefined && { dataDir: flags.data }),
      ...(flags.clientId !== undefined && { clientId: flags.clientId }),
      ...(clientSecret !== undefined && { clientSecret }),
      ...(flags.verbose && { log: (line: string) => context.printer.err(line) }),
    });
  } catch (error) {
    if (error instanceof EmulatorDataError) {
      throw new CliUsageError(
        error.problems.map((p) => ({
          field: '--data',
          message: [p.file && (p.line ? `${p.file}:${p.line}` : p.file), p.path, p.message].filter(Boolean).join(': '),
        })),
        'fix the data folder; the README describes its layout',
      );
    }
    throw error;
  }
}
