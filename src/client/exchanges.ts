import type { Exchange, Operation, OperationContext } from '@urql/core';
import { retryExchange } from '@urql/exchange-retry';
import { labelkitAuthExchange } from './auth.js';
import { fetchTransport } from './fetchTransport.js';
import type { Token } from './auth.js';
import { isTransientError, retryAfterMs, toLabelkitError } from './toLabelkitError.js';
import type { FailedCall } from './toLabelkitError.js';
import { asFirstAuthAttempt, withRetryDelay } from './urqlInternals.js';

/** Retries of queries (mutations are never retried). */
export interface RetryOptions {
  /** Attempts in all, the first included. @defaultValue 4 */
  maxAttempts?: number;
  /** The first back-off delay; later ones grow with jitter. @defaultValue 300 */
  initialDelayMs?: number;
  /** The longest delay; a `Retry-After` beyond it is not waited for. @defaultValue 15_000 */
  maxDelayMs?: number;
}

/** What the exchange pipeline needs. */
export interface ExchangeOptions {
  retry?: RetryOptions | undefined;
  /** Obtains a fresh access token (see `makeTokenSource`). */
  tokenSource: () => Promise<Token>;
}

const CALL = 'labelkitCall';

/**
 * The context that carries a call's facts through the pipeline (the retry decision converts a
 * failure with them).
 *
 * @param call - the call's kind, operation name, request id, URL and secrets
 * @returns a partial operation context
 */
export function callContext(call: FailedCall): Partial<OperationContext> {
  return { [CALL]: call };
}

function callOf(operation: Operation): FailedCall {
  return operation.context[CALL] as FailedCall;
}

/**
 * Builds the exchange pipeline of a labelkit client: retries, auth, transport, in that order.
 *
 * @param options - retry settings and the token source
 * @returns the exchanges for urql's `Client`
 * @remarks urql's own exchanges, then labelkit's transport. `retryExchange` retries queries only, on the one rule of
 * `isTransientError` (the same as job waits), with exponential back-off and jitter, honouring
 * `Retry-After` (beyond `maxDelayMs`, it gives up). The auth exchange adds the token. The last
 * entry is the transport: replacing it (a transport exchange of one's own) is one line.
 * @example
 * ```ts
 * new Client({ url, exchanges: buildExchanges({ retry: { maxAttempts: 4 }, tokenSource }) });
 * ```
 */
export function buildExchanges(options: ExchangeOptions): Exchange[] {
  const maxDelayMs = options.retry?.maxDelayMs ?? 15_000;
  return [
    retryExchange({
      maxNumberAttempts: options.retry?.maxAttempts ?? 4,
      initialDelayMs: options.retry?.initialDelayMs ?? 300,
      maxDelayMs,
      randomDelay: true,
      retryIf: (error, operation) => operation.kind === 'query' && isTransientError(toLabelkitError(error, callOf(operation))),
      retryWith: (error, operation) => {
        // The failed attempt may be one whose token request failed: the retry must not go out bare.
        const retry = asFirstAuthAttempt(operation);
        const wish = retryAfterMs(error.response);
        if (wish === undefined) return retry;
        return wish > maxDelayMs ? null : withRetryDelay(retry, wish);
      },
    }),
    labelkitAuthExchange(options.tokenSource),
    fetchTransport, // the transport: labelkit's lean one in place of urql's fetchExchange (BENCHMARKS.md)
  ];
}
