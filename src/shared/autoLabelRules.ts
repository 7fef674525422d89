import { MAX_GRAPHQL_INT, ROLES } from './constants.js';
import { isLoopbackHost } from './isLoopbackHost.js';
import { isRecord } from './isRecord.js';
import { checkId } from './problem.js';
import type { Problem } from './problem.js';

/** Options of `autoLabelInputProblems`. */
export interface AutoLabelValidationOptions {
  /**
   * Accept a plain-http model endpoint on a host other than loopback. The secret key would
   * travel in clear, so this must be asked for explicitly (the emulator, a local test server, does).
   * @defaultValue false
   */
  allowInsecureEndpoint?: boolean | undefined;
}

// A plausible address: something@something.tld, no spaces. Deliberately loose.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The one home of the rules of `autoLabelTokenBasedProject`'s input: the client checks them
 * before it starts a (paid) job, the emulator before it runs one.
 *
 * @param input - the value to check (typed `unknown`: it often comes from a file or a CLI)
 * @param options - see {@link AutoLabelValidationOptions}
 * @returns every problem at once, paths from `input`; an empty list means the input is valid
 * @remarks Rules: non-empty `projectId`; a plausible `labelerEmail`; `options.numberOfFilesPerRequest`
 * an integer ≥ 0; `options.serviceProvider` absent or `CUSTOM`; `targetAPI.endpoint` an absolute
 * http(s) URL without user info, https unless the host is loopback or `allowInsecureEndpoint` is set;
 * `targetAPI.secretKey` a non-empty string; `role`, when given, `LABELER` or `REVIEWER`.
 * Messages never quote the secret key.
 * @example
 * ```ts
 * autoLabelInputProblems({ projectId: '', labelerEmail: 'x' });
 * // [{ path: 'input.projectId', message: 'must be a non-empty string' }, …]
 * ```
 */
export function autoLabelInputProblems(input: unknown, options: AutoLabelValidationOptions = {}): Problem[] {
  if (!isRecord(input)) return [{ path: 'input', message: 'must be an object' }];
  const problems: Problem[] = [...checkId(input.projectId, 'input.projectId')];
  const add = (path: string, message: string) => problems.push({ path: `input.${path}`, message });
  if (typeof input.labelerEmail !== 'string' || !EMAIL.test(input.labelerEmail)) add('labelerEmail', 'must be an e-mail address such as name@example.com');
  if (input.role != null && !(ROLES as readonly unknown[]).includes(input.role)) add('role', `must be one of ${ROLES.join(', ')}`);
  const opts = input.options;
  if (!isRecord(opts)) add('options', 'must be an object with numberOfFilesPerRequest');
  else {
    const n = opts.numberOfFilesPerRequest;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > MAX_GRAPHQL_INT) {
      add('options.numberOfFilesPerRequest', 'must be an integer >= 0 (0 sends all lines of a document in one request)');
    }
    if (opts.serviceProvider != null && opts.serviceProvider !== 'CUSTOM') add('options.serviceProvider', 'must be CUSTOM (the only provider this API supports)');
  }
  const target = input.targetAPI;
  if (!isRecord(target)) return [...problems, { path: 'input.targetAPI', message: 'must be an object with endpoint and secretKey' }];
  const endpoint = endpointProblem(target.endpoint, options);
  if (endpoint) add('targetAPI.endpoint', endpoint);
  if (typeof target.secretKey !== 'string' || target.secretKey.trim() === '') add('targetAPI.secretKey', 'must be a non-empty string');
  return problems;
}

function endpointProblem(value: unknown, options: AutoLabelValidationOptions): string | undefined {
  let url: URL | undefined;
  try {
    url = typeof value === 'string' && value.trim() !== '' ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (!url) return 'must be an absolute http(s) URL';
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `must use http or https, not ${url.protocol.replace(':', '')}`;
  if (url.username || url.password) return 'must not carry credentials in the URL; pass the secret as secretKey';
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !options.allowInsecureEndpoint) {
    return 'uses plain http on a non-loopback host, so the secret key would travel in clear; use https or allow it explicitly (allowInsecureEndpoint)';
  }
  return undefined;
}
