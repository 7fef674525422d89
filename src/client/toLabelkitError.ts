// The one conversion of a failed call into labelkit's errors; what a failure is (retried or final) is failures.ts.
import type { CombinedError } from '@urql/core';
import { redactValue, type Secrets } from '../shared/redact.js';
import { AuthError, type GraphQLErrorEntry, GraphQLRequestError, isLabelkitError, type LabelkitError, NetworkError, ProtocolError, ValidationError } from './errors.js';
import { causeCode, isOk, kindOf, NEVER_SENT, responseOf, retryAfterMs } from './failures.js';
import { inBrowser } from './inBrowser.js';

/** What the one conversion point knows about the failed call. */
export interface FailedCall {
  kind: 'query' | 'mutation';
  /** The operation's name and the request's id, for the error's fields. */
  details: { operationName: string; requestId: string };
  /** `(operation X, request Y)`, ending every message. */
  where: string;
  url: string;
  /** Secret values that must not survive into the error (tokens, client secret, secretKey). */
  secrets: Secrets;
  /** What a mutation of unknown outcome tells the caller to do (the helper's, else MUTATION_OUTCOME_UNKNOWN_HINT); empty for a query. */
  hint: string;
  /** True when the token is a static one (`token`): a refusal was not followed by a refresh. */
  staticToken?: boolean;
}

/**
 * Converts an urql error into the labelkit error family: the one conversion point.
 *
 * @param error - the CombinedError of a result
 * @param call - the call's kind, operation name, request id, URL and secrets
 * @returns an {@link AuthError}, {@link GraphQLRequestError}, {@link ProtocolError} or
 * {@link NetworkError}; messages end with `(operation X, request Y)` and hold no secret
 * @remarks A mutation's outcome is unknown (`mutationOutcomeUnknown`, with a hint in the message)
 * when the request may have reached the service: not when the connection was refused or never
 * made, and not when the service answered 4xx.
 */
export function toLabelkitError(error: CombinedError, call: FailedCall): LabelkitError {
  const response = responseOf(error);
  const status = response?.status;
  const { secrets, where } = call;
  const details = { ...call.details, secrets, ...(status !== undefined && { status }) };
  const cause = error.networkError;
  const mutation = call.kind === 'mutation';
  // A token failure, or a request refused before it was sent: already a labelkit error.
  if (isLabelkitError(cause)) {
    const text = `${cause.message.replace(/^\[\w+\] /, '')} ${where}`;
    const own = { ...details, cause: cause.cause, phase: cause.phase, status: cause.status };
    // By code, not by class: a labelkit error from a second copy of the package is one too.
    const { code } = cause;
    // A port that fetch refuses to call (transport.ts): the URL option is at fault, nothing was sent.
    if (cause.code === 'VALIDATION') return new ValidationError(cause.problems, call.details);
    return code === 'NETWORK' || code === 'TIMEOUT' || code === 'ABORTED' ? new NetworkError(code, text, own) : new AuthError(text, own);
  }
  switch (kindOf(error)) {
    case 'auth': {
      const after = call.staticToken ? '; check the token' : ' even after a refresh; check the token or client credentials';
      return new AuthError(`the service refused the access token${status === 401 ? ' (HTTP 401)' : ' (Unauthorized)'}${after} ${where}`, details);
    }
    case 'graphql': {
      const entries: GraphQLErrorEntry[] = error.graphQLErrors.map(({ message, path, extensions }) =>
        ({ message, ...(path && { path }), ...(extensions && Object.keys(extensions).length > 0 && { extensions }) }));
      const err = new GraphQLRequestError(redactValue(entries, secrets), details);
      err.message += ` ${where}`; // stays non-enumerable, as every Error's message
      return err;
    }
    case 'protocol':
      return new ProtocolError(`the answer from ${call.url} (HTTP ${status}) is not GraphQL JSON${call.hint} ${where}`, { ...details, mutationOutcomeUnknown: mutation, cause });
    case 'network': {
      const code = causeCode(cause);
      const ok = isOk(status);
      // A 4xx (429 included) means the service refused the request: the mutation did not run.
      const refused = status !== undefined && status >= 400 && status < 500;
      const unknownOutcome = mutation && !NEVER_SENT.has(code ?? '') && !refused;
      const graphQL = error.graphQLErrors.map((e) => e.message).join('; ');
      const reason = ok
        ? `the connection to ${call.url} was lost while reading the answer (HTTP ${status})${code ? ` (${code})` : ''}`
        : status !== undefined
          ? `HTTP ${status} from ${call.url}${graphQL ? `: ${graphQL.slice(0, 500)}` : ''}`
          : `could not reach ${call.url}${code ? ` (${code})` : ''}${inBrowser() ? ' (in a browser this can also be a CORS refusal)' : ''}`;
      // A cut answer is no answer: its 200 status is not kept, so that it classifies as transient.
      const own = { ...details, ...(ok && { status: undefined }), mutationOutcomeUnknown: unknownOutcome, cause };
      const err = new NetworkError('NETWORK', `${reason}${unknownOutcome ? call.hint : ''} ${where}`, own);
      const retryAfter = retryAfterMs(response);
      if (retryAfter !== undefined) err.retryAfterMs = retryAfter;
      return err;
    }
  }
}
