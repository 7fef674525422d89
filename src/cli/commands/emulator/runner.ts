import { EmulatorDataError, MAX_DEMO_PROJECTS, startEmulator } from '../../../emulator/index.js';
import type { RunningEmulator } from '../../../emulator/index.js';
import type { ActionContext } from '../../runAction.js';
import { listenError, parsePort } from '../../serverFlags.js';
import { parseDuration } from '../../duration.js';
import { MODEL_TIMEOUT_MS } from '../../../shared/constants.js';
import { CliUsageError } from '../../usageError.js';
import type { UsageProblem } from '../../usageError.js';

/** Flags of `labelkit emulator`. */
export interface EmulatorFlags {
  port: string | number;
  host: string;
  data?: string;
  demoProjects?: string;
  clientId?: string;
  clientSecretEnv?: string;
  /** `tags` or `labels`. @defaultValue 'tags' */
  schemaGeneration?: string;
  /** `--cors-origin`, repeatable: browser origins allowed besides the loopback ones. */
  corsOrigin?: string[];
  /** `--model-timeout`: the time-out of one model request of a job (a duration). */
  modelTimeout?: string;
  verbose?: boolean;
}

/**
 * Checks `--cors-origin` values: each must be an origin as browsers send it.
 *
 * @param origins - the values given
 * @param problems - receives one problem per bad value
 * @returns the good values
 * @remarks A browser sends `Origin` as scheme, host and port only (`https://app.example:8443`),
 * so a path, a trailing slash or another scheme would never match and is refused here.
 */
function checkCorsOrigins(origins: readonly string[], problems: UsageProblem[]): string[] {
  const good: string[] = [];
  for (const origin of origins) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== origin) {
      const hint = parsed && /^https?:$/.test(parsed.protocol) ? `; did you mean ${parsed.origin}?` : '';
      problems.push({ field: '--cors-origin', message: `"${origin}" is not an origin: write scheme://host[:port] with http or https, no path or trailing slash${hint}` });
    } else good.push(origin);
  }
  return good;
}

/**
 * Parses `--demo-projects`.
 *
 * @param value - what the user typed, or undefined
 * @returns the count (0 when absent), NaN when it is not an integer from 0 to MAX_DEMO_PROJECTS
 * @remarks The caller turns NaN into a usage problem naming the flag.
 * @example
 * ```ts
 * demoProjectCount('1000'); // 1000
 * ```
 */
export function demoProjectCount(value: string | undefined): number {
  if (value === undefined) return 0;
  const n = /^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN;
  return Number.isInteger(n) && n <= MAX_DEMO_PROJECTS ? n : Number.NaN;
}

/**
 * Starts the emulator from the flags.
 *
 * @param flags - port, host, data folder, client id, the variable with the client secret, extra CORS
 * origins, the schema generation
 * @param context - the run (environment; the client secret is registered for redaction)
 * @returns the running emulator
 * @throws {@link CliUsageError} for bad flags (a `--port` that fetch refuses to call included), an
 * unset variable, a bad data folder (every problem with file and line), or a port in use
 * (`port N is in use (try --port 0)`)
 */
export async function runEmulator(flags: EmulatorFlags, context: ActionContext): Promise<RunningEmulator> {
  const problems: UsageProblem[] = [];
  const port = parsePort(flags.port, problems);
  const demoProjects = demoProjectCount(flags.demoProjects);
  if (Number.isNaN(demoProjects)) problems.push({ field: '--demo-projects', message: `must be an integer from 0 to ${MAX_DEMO_PROJECTS}` });
  const corsOrigins = checkCorsOrigins(flags.corsOrigin ?? [], problems);
  let clientSecret: string | undefined;
  if (flags.clientSecretEnv !== undefined) {
    clientSecret = context.io.env[flags.clientSecretEnv]?.trim() || undefined;
    if (!clientSecret) problems.push({ field: '--client-secret-env', message: `${flags.clientSecretEnv} is not set: export ${flags.clientSecretEnv}=…` });
  }
  const schemaGeneration = flags.schemaGeneration;
  if (schemaGeneration !== undefined && schemaGeneration !== 'tags' && schemaGeneration !== 'labels') {
    problems.push({ field: '--schema-generation', message: "must be tags (today's production) or labels (after the rename)" });
  }
  let modelTimeoutMs: number | undefined;
  if (flags.modelTimeout !== undefined) {
    modelTimeoutMs = parseDuration(flags.modelTimeout);
    if (modelTimeoutMs === undefined || modelTimeoutMs < MODEL_TIMEOUT_MS.min || modelTimeoutMs > MODEL_TIMEOUT_MS.max) {
      problems.push({ field: '--model-timeout', message: `must be a duration from ${MODEL_TIMEOUT_MS.min}ms to ${MODEL_TIMEOUT_MS.max / 60_000}m, such as 30s or 90000 (ms)` });
    }
  }
  context.printer.addSecret(clientSecret);
  if (problems.length > 0) throw new CliUsageError(problems, 'labelkit emulator --help');
  try {
    return await startEmulator({
      port,
      host: flags.host,
      ...(schemaGeneration !== undefined && { schemaGeneration: schemaGeneration as 'tags' | 'labels' }),
      ...(flags.data !== undefined && { dataDir: flags.data }),
      demoProjects,
      ...(flags.clientId !== undefined && { clientId: flags.clientId }),
      ...(clientSecret !== undefined && { clientSecret }),
      ...(corsOrigins.length > 0 && { extraCorsOrigins: corsOrigins }),
      ...(modelTimeoutMs !== undefined && { model: { timeoutMs: modelTimeoutMs } }),
      ...(flags.verbose && { log: (line: string) => context.printer.err(line) }),
    });
  } catch (error) {
    if (error instanceof EmulatorDataError) {
      throw new CliUsageError(
        error.problems.map((p) => ({
          field: '--data',
          message: [p.file && (p.line ? `${p.file}:${p.line}` : p.file), p.path, p.message].filter(Boolean).join(': '),
        })),
        'fix the data folder; docs/emulator.md (Data folder format) describes its layout',
      );
    }
    throw listenError(error, { port, host: flags.host });
  }
}
