import { isBadPort } from '../shared/badPorts.js';
import { MAX_GRAPHQL_INT, ROLES } from '../shared/constants.js';
import { isLoopbackHost } from '../shared/isLoopbackHost.js';

/** One reason why input was refused, with the path of the field at fault. */
export interface ValidationProblem {
  /** Where the problem is, e.g. `input.targetAPI.endpoint`. */
  path: string;
  /** What rule the value breaks, e.g. `must be an integer >= 0`. Never quotes a secret. */
  message: string;
}

/** Options of {@link validateAutoLabelInput}. */
export interface AutoLabelValidationOptions {
  /**
   * Accept a plain-http model endpoint on a host other than loopback. The secret key would
   * travel in clear, so this must be asked for explicitly.
   * @defaultValue false
   */
  allowInsecureEndpoint?: boolean;
}

// A plausible address: something@something.tld, no spaces. Deliberately loose.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks a non-empty id (a string with something besides white space).
 *
 * @param value - the id
 * @param path - the field's path for the problem
 * @returns the problems found (none or one)
 */
export function checkId(value: unknown, path: string): ValidationProblem[] {
  if (typeof value !== 'string' || value.trim() === '') return [{ path, message: 'must be a non-empty string' }];
  return [];
}

/**
 * Checks a non-empty list of non-empty job ids.
 *
 * @param value - the ids
 * @returns the problems found, with the index of each bad id
 */
export function checkJobIds(value: unknown): ValidationProblem[] {
  if (!Array.isArray(value) || value.length === 0) return [{ path: 'jobIds', message: 'must be a non-empty list of job ids' }];
  return value.flatMap((id, i) => checkId(id, `jobIds[${i}]`));
}

/**
 * Checks a role: `LABELER` or `REVIEWER`.
 *
 * @param value - the role
 * @param path - the field's path for the problem
 * @returns the problems found (none or one)
 */
export function checkRole(value: unknown, path: string): ValidationProblem[] {
  if (typeof value !== 'string' || !(ROLES as readonly string[]).includes(value)) {
    return [{ path, message: `must be one of ${ROLES.join(', ')}` }];
  }
  return [];
}

/**
 * Validates the input of `autoLabelTokenBasedProject` before anything is sent.
 *
 * @param input - the value to check (typed `unknown`: it often comes from a file or a CLI)
 * @param options - see {@link AutoLabelValidationOptions}
 * @returns every problem at once; an empty list means the input is valid
 * @remarks Rules: non-empty `projectId`; a plausible `labelerEmail`; `options.numberOfFilesPerRequest`
 * an integer ≥ 0; `options.serviceProvider` absent or `CUSTOM`; `targetAPI.endpoint` an absolute
 * http(s) URL, https unless the host is loopback or `allowInsecureEndpoint` is set;
 * `targetAPI.secretKey` a non-empty string; `role`, when given, `LABELER` or `REVIEWER`.
 * Messages never quote the secret key.
 * @example
 * ```ts
 * const problems = validateAutoLabelInput({ projectId: '', labelerEmail: 'x' });
 * // [{ path: 'input.projectId', message: 'must be a non-empty string' }, …]
 * ```
 */
export function validateAutoLabelInput(input: unknown, options: AutoLabelValidationOptions = {}): ValidationProblem[] {
  if (!isRecord(input)) return [{ path: 'input', message: 'must be an object' }];
  const problems: ValidationProblem[] = [...checkId(input.projectId, 'input.projectId')];

  if (typeof input.labelerEmail !== 'string' || !EMAIL.test(input.labelerEmail)) {
    problems.push({ path: 'input.labelerEmail', message: 'must be an e-mail address such as name@example.com' });
  }
  if (input.role !== undefined && input.role !== null) problems.push(...checkRole(input.role, 'input.role'));

  const opts = input.options;
  if (!isRecord(opts)) {
    problems.push({ path: 'input.options', message: 'must be an object with numberOfFilesPerRequest' });
  } else {
    const n = opts.numberOfFilesPerRequest;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > MAX_GRAPHQL_INT) {
      problems.push({
        path: 'input.options.numberOfFilesPerRequest',
        message: 'must be an integer >= 0 (0 sends all lines of a document in one request)',
      });
    }
    if (opts.serviceProvider !== undefined && opts.serviceProvider !== null && opts.serviceProvider !== 'CUSTOM') {
      problems.push({ path: 'input.options.serviceProvider', message: 'must be CUSTOM (the only provider this API supports)' });
    }
  }

  const target = input.targetAPI;
  if (!isRecord(target)) {
    problems.push({ path: 'input.targetAPI', message: 'must be an object with endpoint and secretKey' });
  } else {
    problems.push(...checkEndpoint(target.endpoint, options));
    if (typeof target.secretKey !== 'string' || target.secretKey.trim() === '') {
      problems.push({ path: 'input.targetAPI.secretKey', message: 'must be a non-empty string' });
    }
  }
  return problems;
}

function checkEndpoint(value: unknown, options: AutoLabelValidationOptions): ValidationProblem[] {
  const path = 'input.targetAPI.endpoint';
  if (typeof value !== 'string' || value.trim() === '') return [{ path, message: 'must be an absolute http(s) URL' }];
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return [{ path, message: 'must be an absolute http(s) URL' }];
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return [{ path, message: `must use http or https, not ${url.protocol.replace(':', '')}` }];
  }
  if (url.username || url.password) {
    return [{ path, message: 'must not carry credentials in the URL; pass the secret as secretKey' }];
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !options.allowInsecureEndpoint) {
    return [
      {
        path,
        message:
          'uses plain http on a non-loopback host, so the secret key would travel in clear; use https or allow it explicitly (allowInsecureEndpoint)',
      },
    ];
  }
  return [];
}

/** The parts of the client's options that {@link checkClientOptions} looks at. */
export interface ClientOptionsToCheck {
  url: unknown;
  fetch?: unknown;
  token?: unknown;
  getToken?: unknown;
  clientCredentials?: { clientId?: unknown; clientSecret?: unknown } | undefined;
  timeoutMs?: unknown;
  retry?: { maxAttempts?: unknown; initialDelayMs?: unknown; maxDelayMs?: unknown } | undefined;
  poll?: TimingOptionsToCheck | undefined;
  schemaGeneration?: unknown;
  onSchemaChange?: unknown;
}

/** A number option: absent, or a number ≥ min (Infinity allowed where said), integer if asked. */
function checkNumber(value: unknown, path: string, rule: { min: number; integer?: boolean }): ValidationProblem[] {
  if (value === undefined) return [];
  const ok = typeof value === 'number' && !Number.isNaN(value) && value >= rule.min && (!rule.integer || Number.isInteger(value));
  if (ok) return [];
  return [{ path, message: `must be ${rule.integer ? 'an integer' : 'a number'} >= ${rule.min}` }];
}

/** The timing options of a client, a call or a wait, as given. */
export interface TimingOptionsToCheck {
  timeoutMs?: unknown;
  intervalMs?: unknown;
  maxIntervalMs?: unknown;
  notFoundGraceMs?: unknown;
  signal?: unknown;
  onProgress?: unknown;
}

/**
 * Checks time-outs, poll intervals, a signal and a progress callback: the one rule for the
 * client's options (`timeoutMs`, `poll`) and for each call's and each wait's options.
 *
 * @param options - the options as given (absent is fine)
 * @param path - where they sit, e.g. `options` or `options.poll`
 * @returns every problem, each naming its option
 * @example
 * ```ts
 * checkTimingOptions({ intervalMs: 0, timeoutMs: -1 }, 'options');
 * // [{ path: 'options.timeoutMs', … }, { path: 'options.intervalMs', message: 'must be a number >= 1' }]
 * ```
 */
export function checkTimingOptions(options: TimingOptionsToCheck | undefined, path: string): ValidationProblem[] {
  if (options === undefined) return [];
  if (typeof options !== 'object' || options === null) return [{ path, message: 'must be an object' }];
  const problems = [
    ...checkNumber(options.timeoutMs, `${path}.timeoutMs`, { min: 1 }),
    ...checkNumber(options.intervalMs, `${path}.intervalMs`, { min: 1 }),
    ...checkNumber(options.maxIntervalMs, `${path}.maxIntervalMs`, { min: 1 }),
    ...checkNumber(options.notFoundGraceMs, `${path}.notFoundGraceMs`, { min: 0 }),
  ];
  if (options.signal !== undefined && !(typeof options.signal === 'object' && options.signal !== null && 'aborted' in options.signal && 'addEventListener' in options.signal)) {
    problems.push({ path: `${path}.signal`, message: 'must be an AbortSignal' });
  }
  if (options.onProgress !== undefined && typeof options.onProgress !== 'function') {
    problems.push({ path: `${path}.onProgress`, message: 'must be a function' });
  }
  return problems;
}

/**
 * Checks the options of `createLabelingClient`: an absolute http(s) URL, exactly one source
 * of credentials, and sensible numbers for time-out, retries and polling.
 *
 * @param options - the options as given
 * @returns every problem at once; messages never quote a token or secret
 */
export function checkClientOptions(options: ClientOptionsToCheck): ValidationProblem[] {
  const problems: ValidationProblem[] = [];
  let url: URL | undefined;
  try {
    url = typeof options.url === 'string' ? new URL(options.url) : undefined;
  } catch {
    /* reported below */
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    problems.push({ path: 'options.url', message: 'must be an absolute http(s) URL of the GraphQL endpoint' });
  } else if (options.fetch === undefined && isBadPort(url.port)) {
    // Every fetch (Node's and browsers') refuses these ports: without this, each call would fail after its retries.
    problems.push({ path: 'options.url', message: `uses port ${url.port}, which fetch refuses to call (a "bad port" of the Fetch standard); serve the API on another port` });
  }
  const sources = [options.token, options.getToken, options.clientCredentials].filter((s) => s !== undefined);
  if (sources.length !== 1) {
    problems.push({ path: 'options', message: 'give exactly one of token, getToken, clientCredentials' });
  }
  if (options.token !== undefined && (typeof options.token !== 'string' || options.token.trim() === '')) {
    problems.push({ path: 'options.token', message: 'must be a non-empty string' });
  }
  if (options.getToken !== undefined && typeof options.getToken !== 'function') {
    problems.push({ path: 'options.getToken', message: 'must be a function returning the access token' });
  }
  const cc = options.clientCredentials;
  if (cc !== undefined) {
    problems.push(...checkId(cc?.clientId, 'options.clientCredentials.clientId'));
    problems.push(...checkId(cc?.clientSecret, 'options.clientCredentials.clientSecret'));
  }
  problems.push(...checkTimingOptions({ timeoutMs: options.timeoutMs }, 'options'));
  problems.push(...checkNumber(options.retry?.maxAttempts, 'options.retry.maxAttempts', { min: 1, integer: true }));
  problems.push(...checkNumber(options.retry?.initialDelayMs, 'options.retry.initialDelayMs', { min: 0 }));
  problems.push(...checkNumber(options.retry?.maxDelayMs, 'options.retry.maxDelayMs', { min: 0 }));
  problems.push(...checkTimingOptions(options.poll, 'options.poll'));
  if (options.schemaGeneration !== undefined && options.schemaGeneration !== 'tags' && options.schemaGeneration !== 'labels') {
    problems.push({ path: 'options.schemaGeneration', message: "must be 'tags' or 'labels'" });
  }
  if (options.onSchemaChange !== undefined && typeof options.onSchemaChange !== 'function') {
    problems.push({ path: 'options.onSchemaChange', message: 'must be a function' });
  }
  return problems;
}
