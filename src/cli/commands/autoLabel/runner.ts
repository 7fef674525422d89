import { createLabelingClient, startAutoLabel, validateAutoLabelInput } from 'labelkit';
import type { AutoLabelInput, JobOutcome, JobSnapshot } from 'labelkit';
import { own, ownWords, REDACTED, withForeignValues } from '../../../shared/redact.js';
import { clientAuth, parseRole, requireConnection } from '../../connection.js';
import type { ConnectionFlags } from '../../connection.js';
import { readSecretFile } from '../../readSecretFile.js';
import type { ActionContext } from '../../runAction.js';
import type { UsageProblem } from '../../usageError.js';
import { ownProblem } from '../../usageError.js';
import { AUTO_LABEL_OPTIONS, inFlagTerms } from '../../optionFlags.js';
import { parseWaitFlags, waitForAll } from '../../jobWait.js';
import { AUTO_LABEL_FIELDS } from './fields.js';
import type { JobWatcher } from '../../jobWait.js';

/** Flags of `labelkit auto-label`. */
export interface AutoLabelFlags extends ConnectionFlags {
  project?: string;
  labelerEmail?: string;
  endpoint?: string;
  filesPerRequest?: string;
  role?: string;
  secretKeyEnv?: string;
  secretKeyFile?: string;
  wait?: boolean;
  timeout?: string;
  interval?: string;
  dryRun?: boolean;
  allowInsecureEndpoint?: boolean;
}


/** The default of `--secret-key-env`, the same variable `labelkit model` reads. */
const DEFAULT_SECRET_KEY_ENV = 'LABELKIT_MODEL_SECRET';

/** The request `--dry-run` would have sent, secrets shown as `***`. */
interface DryRunRequest {
  url: string;
  operationName: string;
  query: string;
  variables: unknown;
}

/** Callbacks of {@link runAutoLabel}. */
interface AutoLabelHooks {
  /** The job was created (called before any wait, so that its id is known at once). */
  onStarted(job: JobSnapshot): void;
  /** Builds the progress display for `--wait`. */
  makeWatcher(jobIds: string[]): JobWatcher | Promise<JobWatcher>;
}

/** What `labelkit auto-label` did. */
export type AutoLabelResult =
  | { kind: 'dry-run'; request: DryRunRequest }
  | { kind: 'started'; job: JobSnapshot }
  | { kind: 'waited'; job: JobSnapshot; outcome: JobOutcome };

async function readSecretKey(flags: AutoLabelFlags, context: ActionContext, problems: UsageProblem[]): Promise<string | undefined> {
  if (flags.secretKeyFile !== undefined && flags.secretKeyEnv !== undefined) {
    problems.push(ownProblem('--secret-key-env, --secret-key-file', ownWords('give only one source of the secret key')));
    return undefined;
  }
  if (flags.secretKeyFile !== undefined) return readSecretFile(flags.secretKeyFile, '--secret-key-file', problems);
  const name = flags.secretKeyEnv ?? DEFAULT_SECRET_KEY_ENV;
  const value = context.io.env[name]?.trim();
  if (!value) problems.push(ownProblem('--secret-key-env', own`${name} is not set: export ${name}=… (the secret your model expects), or use --secret-key-file`));
  return value || undefined;
}

/**
 * Builds and checks the auto-labeling input from the flags: every problem at once.
 *
 * @param flags - the command's flags
 * @param context - the run (environment, printer: the secret key is registered for redaction)
 * @param problems - receives every problem
 * @returns the input (meaningful only when no problem was added)
 */
export async function buildAutoLabelInput(flags: AutoLabelFlags, context: ActionContext, problems: UsageProblem[]): Promise<AutoLabelInput> {
  const required: [string, string | undefined][] = [
    ['--project', flags.project],
    ['--labeler-email', flags.labelerEmail],
    ['--endpoint', flags.endpoint],
    ['--files-per-request', flags.filesPerRequest],
  ];
  for (const [field, value] of required) if (value === undefined) problems.push({ field, message: 'required' });
  const role = parseRole(flags.role, problems, false);
  const secretKey = await readSecretKey(flags, context, problems);
  context.printer.addSecret(secretKey);
  const n = flags.filesPerRequest;
  const input: AutoLabelInput = {
    projectId: flags.project?.trim() ?? '',
    labelerEmail: flags.labelerEmail?.trim() ?? '',
    options: { numberOfFilesPerRequest: n !== undefined && /^\s*\d+\s*$/.test(n) ? Number(n) : Number.NaN },
    targetAPI: { endpoint: flags.endpoint?.trim() ?? '', secretKey: secretKey ?? '' },
    ...(role && { role }),
  };
  const seen = new Set(problems.map((p) => p.field));
  for (const p of validateAutoLabelInput(input, { allowInsecureEndpoint: flags.allowInsecureEndpoint === true })) {
    const field = AUTO_LABEL_FIELDS[p.path] ?? p.path;
    if (field === AUTO_LABEL_FIELDS['input.targetAPI.secretKey'] || seen.has(field)) continue; // reported above
    seen.add(field);
    // The client's words about this input; any of its values it quotes stays a value.
    problems.push(ownProblem(field, withForeignValues(inFlagTerms(p.message, AUTO_LABEL_OPTIONS), inputValues(input))));
  }
  return input;
}

/** Every text of an input a validation message may quote, and the parts of its endpoint URL. */
function inputValues(input: AutoLabelInput): string[] {
  const values = [input.projectId, input.labelerEmail, input.targetAPI.endpoint, input.role ?? ''];
  try {
    const url = new URL(input.targetAPI.endpoint);
    values.push(url.protocol, url.protocol.replace(':', ''), url.host, url.hostname, url.port, url.pathname, url.search, url.username, url.password);
  } catch {
    /* not a URL: the whole endpoint is listed already */
  }
  return values;
}

/**
 * Starts an auto-labeling job; with `--wait`, waits for it; with `--dry-run`, only shows the
 * request.
 *
 * @param flags - the command's flags
 * @param context - the run's io, printer and Ctrl-C signal
 * @param hooks - told when the job started; builds the progress display (only with `--wait`)
 * @returns the dry-run request, the started job, or the job and its outcome
 * @throws {@link CliUsageError} listing every problem (nothing is sent, also with `--dry-run`)
 * @remarks `--dry-run` runs the real client with a `fetch` that records the request and sends
 * nothing, so the request shown is exactly what would go out (operationName, query, variables);
 * the secret key is replaced by `***`. The mutation is never retried.
 */
export async function runAutoLabel(flags: AutoLabelFlags, context: ActionContext, hooks: AutoLabelHooks): Promise<AutoLabelResult> {
  const problems: UsageProblem[] = [];
  const input = await buildAutoLabelInput(flags, context, problems);
  const { timeoutMs, intervalMs } = parseWaitFlags(flags, problems);
  const connection = await requireConnection(flags, context.io, context.printer, problems);
  const allowInsecureEndpoint = flags.allowInsecureEndpoint === true;

  if (flags.dryRun) {
    let recorded: { operationName: string; query: string; variables: { input: AutoLabelInput } } | undefined;
    const recorder: typeof fetch = async (_url, init) => {
      recorded = JSON.parse(String(init?.body));
      return new Response(JSON.stringify({ data: { result: { id: 'dry-run', status: 'NONE', progress: 0 } } }), {
        headers: { 'content-type': 'application/json' },
      });
    };
    const dry = createLabelingClient({ url: connection.url, token: 'dry-run', fetch: recorder, retry: { maxAttempts: 1 } });
    try {
      await startAutoLabel(dry, input, { allowInsecureEndpoint });
    } finally {
      dry.close();
    }
    const { operationName, query, variables } = recorded!;
    const shown = { ...variables, input: { ...variables.input, targetAPI: { ...variables.input.targetAPI, secretKey: REDACTED } } };
    return { kind: 'dry-run', request: { url: connection.url, operationName, query, variables: shown } };
  }

  const client = createLabelingClient({ url: connection.url, ...clientAuth(connection), retry: connection.retry, poll: { intervalMs, maxIntervalMs: intervalMs * 5 } });
  try {
    const job = await startAutoLabel(client, input, { signal: context.signal, allowInsecureEndpoint });
    hooks.onStarted(job);
    if (!flags.wait) return { kind: 'started', job };
    const watcher = await hooks.makeWatcher([job.id]);
    const [outcome] = await waitForAll(client, [job.id], { timeoutMs, signal: context.signal, watcher });
    return { kind: 'waited', job, outcome: outcome! };
  } finally {
    client.close();
  }
}
