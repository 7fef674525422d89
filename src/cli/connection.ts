import type { Command } from 'commander';
import { clientCredentials } from 'labelkit';
import type { ClientCredentials, LabelingClientOptions, RetryOptions } from 'labelkit';
import { ROLES } from '../shared/constants.js';
import { urlSecrets } from '../shared/redact.js';
import type { Io } from './io.js';
import { readSecretFile } from './readSecretFile.js';
import { CliUsageError } from './usageError.js';
import type { UsageProblem } from './usageError.js';

/** The connection flags every service command accepts (commander's camelCase names). */
export interface ConnectionFlags {
  url?: string;
  token?: string;
  tokenFile?: string;
  tokenStdin?: boolean;
  clientId?: string;
  clientSecretFile?: string;
  retries?: string;
}

/** Where the service is and how to authenticate, resolved from flags, files, stdin and environment. */
export interface Connection {
  url: string;
  /** Exactly one credential, as resolved (see {@link clientAuth} for the client's options). */
  auth: { token: string } | { clientCredentials: ClientCredentials };
  /** Where the credential came from, for `--verbose` (a flag or variable name, never a value). */
  source: string;
  /** Every secret value involved, for redaction. */
  secrets: string[];
  /** Retries of reads, when `--retries` was given (otherwise the client's default applies). */
  retry?: Pick<RetryOptions, 'maxAttempts'>;
}

/** The outcome of {@link resolveConnection}: a connection, or the problems that prevent one. */
interface ConnectionResult {
  connection?: Connection;
  problems: UsageProblem[];
  warnings: string[];
}

/**
 * Where the URL and the credential of a service command come from, in the words of its command
 * line: what a hint tells the user to check.
 *
 * @remarks Names and file paths only, never a value. {@link resolveConnection} takes the
 * credential from exactly the place {@link connectionSources} names (both follow
 * {@link credentialFrom}), so a hint never points at a variable the run did not use.
 */
export interface ConnectionSources {
  /** `--url` when the flag was given, else `LABELKIT_URL`. */
  url: '--url' | 'LABELKIT_URL';
  /** The credential, e.g. `the access token in token.txt (--token-file)` or `LABELKIT_TOKEN (the access token)`. */
  credential: string;
}

/** Which credential a run uses: the first match of the order {@link resolveConnection} documents. */
type CredentialFrom =
  | { kind: 'token'; from: '--token' | '--token-stdin' | 'LABELKIT_TOKEN' }
  | { kind: 'token'; from: '--token-file'; file: string }
  | { kind: 'client-credentials'; id: '--client-id' | 'LABELKIT_CLIENT_ID'; secret: '--client-secret-file' | 'LABELKIT_CLIENT_SECRET'; file?: string };

/**
 * Decides where the credential comes from: a token flag, else `LABELKIT_TOKEN` (unless
 * `--client-secret-file` was given), else the client credentials.
 *
 * @param flags - the parsed connection flags
 * @param env - the environment
 * @returns the source (whether its value is usable is {@link resolveConnection}'s business)
 */
function credentialFrom(flags: ConnectionFlags, env: Io['env']): CredentialFrom {
  if (flags.token !== undefined) return { kind: 'token', from: '--token' };
  if (flags.tokenFile !== undefined) return { kind: 'token', from: '--token-file', file: flags.tokenFile };
  if (flags.tokenStdin === true) return { kind: 'token', from: '--token-stdin' };
  if (env.LABELKIT_TOKEN?.trim() && flags.clientSecretFile === undefined) return { kind: 'token', from: 'LABELKIT_TOKEN' };
  return {
    kind: 'client-credentials',
    id: flags.clientId !== undefined ? '--client-id' : 'LABELKIT_CLIENT_ID',
    ...(flags.clientSecretFile !== undefined
      ? { secret: '--client-secret-file' as const, file: flags.clientSecretFile }
      : { secret: 'LABELKIT_CLIENT_SECRET' as const }),
  };
}

/**
 * Names where a service command's URL and credential come from, for its hints.
 *
 * @param flags - the parsed connection flags
 * @param env - the environment
 * @returns the flag or variable of the URL, and a description of the credential's source
 * @remarks The same decision as {@link resolveConnection}'s: a token refused after
 * `--token-file token.txt` is "the access token in token.txt (--token-file)", even when
 * `LABELKIT_TOKEN` is set as well.
 * @example
 * ```ts
 * connectionSources({ tokenFile: 'token.txt' }, { LABELKIT_URL: 'http://127.0.0.1:4000/graphql', LABELKIT_TOKEN: 't0k3n' });
 * // { url: 'LABELKIT_URL', credential: 'the access token in token.txt (--token-file)' }
 * ```
 */
export function connectionSources(flags: ConnectionFlags, env: Io['env']): ConnectionSources {
  const url = flags.url !== undefined ? '--url' : 'LABELKIT_URL';
  const from = credentialFrom(flags, env);
  if (from.kind === 'client-credentials') {
    const id = from.id === '--client-id' ? 'the client id given with --client-id' : 'LABELKIT_CLIENT_ID';
    const secret = from.file !== undefined ? `the client secret in ${from.file} (--client-secret-file)` : 'LABELKIT_CLIENT_SECRET';
    return { url, credential: `${id} and ${secret}` };
  }
  switch (from.from) {
    case '--token-file':
      return { url, credential: `the access token in ${from.file} (--token-file)` };
    case '--token-stdin':
      return { url, credential: 'the access token piped to --token-stdin' };
    case '--token':
      return { url, credential: 'the access token given with --token' };
    case 'LABELKIT_TOKEN':
      return { url, credential: 'LABELKIT_TOKEN (the access token)' };
  }
}

/** The client's default (4 attempts in all), as the help states it. */
const DEFAULT_RETRIES = 3;

/**
 * Declares the connection flags on a command.
 *
 * @param command - a commander command
 * @returns the same command
 */
export function addConnectionOptions(command: Command): Command {
  return command
    .option('--url <url>', 'GraphQL endpoint of the service (default: $LABELKIT_URL)')
    .option('--token-file <file>', 'read the access token from a file')
    .option('--token-stdin', 'read the access token from stdin')
    .option('--client-id <id>', 'client id for the client-credentials login (default: $LABELKIT_CLIENT_ID)')
    .option('--client-secret-file <file>', 'read the client secret from a file (default: $LABELKIT_CLIENT_SECRET)')
    .option('--token <token>', 'access token (discouraged: it shows in the process list; prefer $LABELKIT_TOKEN)')
    .option('--retries <n>', `retries of a read after a transient failure (network, 408, 429, 5xx); 0 turns them off (default: ${DEFAULT_RETRIES})`);
}

function checkRetries(value: string | undefined, problems: UsageProblem[]): Pick<RetryOptions, 'maxAttempts'> | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,2}$/.test(value.trim()) || Number(value) > 20) {
    problems.push({ field: '--retries', message: 'must be a whole number from 0 to 20 (0 turns retries off)' });
    return undefined;
  }
  return { maxAttempts: Number(value) + 1 };
}

function checkUrl(value: string | undefined, field: string, problems: UsageProblem[]): string | undefined {
  if (value === undefined || value.trim() === '') {
    problems.push({ field: '--url', message: 'required: pass --url or set LABELKIT_URL (e.g. http://127.0.0.1:4000/graphql)' });
    return undefined;
  }
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    /* reported below */
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    problems.push({ field, message: 'must be an absolute http(s) URL of the GraphQL endpoint, e.g. http://127.0.0.1:4000/graphql' });
    return undefined;
  }
  if (url.username || url.password) {
    problems.push({ field, message: 'must not carry credentials; use LABELKIT_TOKEN or the client credentials' });
    return undefined;
  }
  return value;
}

/**
 * Resolves the service URL and exactly one credential.
 *
 * @param flags - the parsed connection flags
 * @param io - environment and stdin
 * @returns the connection, or every problem found (plus warnings, e.g. for `--token`)
 * @remarks Order: an explicit flag (`--token`, `--token-file`, `--token-stdin`, or
 * `--client-secret-file`) wins; then `LABELKIT_TOKEN`; then `LABELKIT_CLIENT_ID` with
 * `LABELKIT_CLIENT_SECRET`. Secrets read from files or stdin lose surrounding white space.
 * Problems name the flag or variable, never a secret value. `--retries N` (0 to 20) becomes
 * `retry: { maxAttempts: N + 1 }`; without it the client's default applies.
 * @example
 * ```ts
 * const { connection, problems } = await resolveConnection({}, { ...processIo(), env: { LABELKIT_URL: 'http://127.0.0.1:4000/graphql', LABELKIT_TOKEN: 't0k3n' } });
 * ```
 */
export async function resolveConnection(flags: ConnectionFlags, io: Io): Promise<ConnectionResult> {
  const problems: UsageProblem[] = [];
  const warnings: string[] = [];
  const url = checkUrl(flags.url ?? io.env.LABELKIT_URL, flags.url !== undefined ? '--url' : 'LABELKIT_URL', problems);
  const retry = checkRetries(flags.retries, problems);

  const tokenFlags = [flags.token !== undefined && '--token', flags.tokenFile !== undefined && '--token-file', flags.tokenStdin === true && '--token-stdin'].filter(
    (f): f is string => typeof f === 'string',
  );
  if (tokenFlags.length > 1) problems.push({ field: tokenFlags.join(', '), message: 'give only one source of the access token' });
  if (tokenFlags.length > 0 && flags.clientSecretFile !== undefined) {
    problems.push({ field: `${tokenFlags[0]}, --client-secret-file`, message: 'give either an access token or client credentials, not both' });
  }

  const from = credentialFrom(flags, io.env);
  if (from.kind === 'token') {
    let token: string | undefined;
    switch (from.from) {
      case '--token':
        warnings.push('warning: --token shows the token in the process list and shell history; prefer LABELKIT_TOKEN, --token-file or --token-stdin');
        if (flags.token!.trim() === '') problems.push({ field: '--token', message: 'must not be empty' });
        token = flags.token!.trim() || undefined;
        break;
      case '--token-file':
        token = await readSecretFile(from.file, '--token-file', problems);
        break;
      case '--token-stdin':
        if (io.stdinIsTTY) {
          problems.push({ field: '--token-stdin', message: 'nothing is piped to stdin (e.g. printf %s "$TOKEN" | labelkit … --token-stdin)' });
        } else {
          token = (await io.readStdin()).trim() || undefined;
          if (!token) problems.push({ field: '--token-stdin', message: 'stdin was empty' });
        }
        break;
      case 'LABELKIT_TOKEN':
        token = io.env.LABELKIT_TOKEN!.trim();
    }
    if (problems.length > 0 || !url || !token) return { problems, warnings };
    return { connection: { url, auth: { token }, source: from.from, secrets: [token], ...(retry && { retry }) }, problems, warnings };
  }

  const clientId = (flags.clientId ?? io.env.LABELKIT_CLIENT_ID)?.trim();
  let clientSecret: string | undefined;
  if (from.file !== undefined) clientSecret = await readSecretFile(from.file, '--client-secret-file', problems);
  else clientSecret = io.env.LABELKIT_CLIENT_SECRET?.trim() || undefined;
  const secretField = from.secret;

  if (!clientId && !clientSecret && flags.clientSecretFile === undefined) {
    problems.push({
      field: 'credentials',
      message: 'none found: set LABELKIT_TOKEN, or LABELKIT_CLIENT_ID and LABELKIT_CLIENT_SECRET (or use --token-file, --token-stdin, --client-secret-file)',
    });
  } else if (!clientId) {
    problems.push({ field: flags.clientId !== undefined ? '--client-id' : 'LABELKIT_CLIENT_ID', message: `required with ${secretField}: set LABELKIT_CLIENT_ID or pass --client-id` });
  } else if (!clientSecret && flags.clientSecretFile === undefined) {
    problems.push({ field: 'LABELKIT_CLIENT_SECRET', message: 'required with the client id: set LABELKIT_CLIENT_SECRET or pass --client-secret-file' });
  }
  if (problems.length > 0 || !url || !clientId || !clientSecret) return { problems, warnings };
  return {
    connection: {
      url,
      auth: { clientCredentials: { clientId, clientSecret } },
      source: `client credentials (${secretField})`,
      secrets: [clientSecret],
      ...(retry && { retry }),
    },
    problems,
    warnings,
  };
}

/**
 * Resolves the connection or throws every problem at once, together with the command's own.
 *
 * @param flags - the parsed connection flags
 * @param io - environment and stdin
 * @param printer - receives warnings, and learns the secrets to redact
 * @param otherProblems - problems the command found in its own flags
 * @returns the connection
 * @throws {@link CliUsageError} listing the command's problems and the connection's (without a
 * hint: `runAction` adds `labelkit <the command that ran> --help …`)
 */
export async function requireConnection(
  flags: ConnectionFlags,
  io: Io,
  printer: { err(line: string): void; addSecret(secret: string | undefined): void },
  otherProblems: UsageProblem[] = [],
): Promise<Connection> {
  const result = await resolveConnection(flags, io);
  for (const secret of result.connection?.secrets ?? []) printer.addSecret(secret);
  // The service URL's query values (an API key under any name) are never printed either.
  for (const secret of urlSecrets(flags.url ?? io.env.LABELKIT_URL ?? '', { everyQueryValue: true })) printer.addSecret(secret);
  for (const warning of result.warnings) printer.err(`labelkit: ${warning}`);
  const problems = [...otherProblems, ...result.problems];
  if (problems.length > 0 || !result.connection) {
    // No hint of its own: the error boundary names the command that ran (`labelkit cabinet --help …`).
    throw new CliUsageError(problems);
  }
  return result.connection;
}

/**
 * Checks a `--role` flag (case-insensitive).
 *
 * @param value - what the user typed, or undefined
 * @param problems - receives a problem when it is missing (and required) or unknown
 * @param required - whether the flag must be given
 * @returns the role in upper case, or undefined
 */
export function parseRole(value: string | undefined, problems: UsageProblem[], required = true): (typeof ROLES)[number] | undefined {
  if (value === undefined) {
    if (required) problems.push({ field: '--role', message: `required: ${ROLES.join(' or ')}` });
    return undefined;
  }
  const role = value.toUpperCase();
  if (!(ROLES as readonly string[]).includes(role)) {
    problems.push({ field: '--role', message: `must be ${ROLES.join(' or ')}` });
    return undefined;
  }
  return role as (typeof ROLES)[number];
}

/**
 * Checks a required, non-empty id flag.
 *
 * @param value - the flag's value
 * @param field - the flag's name, e.g. `--project`
 * @param problems - receives a problem when it is missing or blank
 * @returns the trimmed id, or undefined
 */
export function requireId(value: string | undefined, field: string, problems: UsageProblem[]): string | undefined {
  if (value === undefined || value.trim() === '') {
    problems.push({ field, message: value === undefined ? 'required' : 'must not be empty' });
    return undefined;
  }
  return value.trim();
}

/**
 * A connection's credential as `createLabelingClient` takes it: the static token, or the client
 * credentials through `clientCredentials(…)` (which brings the token refresh).
 *
 * @param connection - a resolved connection
 * @returns `{ token }` or `{ auth }`, to spread into the client's options
 * @example
 * ```ts
 * const client = createLabelingClient({ url: connection.url, ...clientAuth(connection) });
 * ```
 */
export function clientAuth(connection: Pick<Connection, 'auth'>): Pick<LabelingClientOptions, 'token' | 'auth'> {
  const { auth } = connection;
  return 'token' in auth ? { token: auth.token } : { auth: clientCredentials(auth.clientCredentials) };
}
