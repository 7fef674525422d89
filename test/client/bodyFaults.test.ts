import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getJobs, startAutoLabel } from '../../src/client/index.js';
import { NetworkError, ProtocolError } from '../../src/client/errors.js';
import type { LabelingClient } from '../../src/client/index.js';
import { advance, until, useFakeClock } from '../support/fakeClock.js';
import { startMockClient } from '../support/mockServer.js';
import type { MockServer } from '../support/mockServer.js';
import { autoLabelInput } from '../support/autoLabelInput.js';

const input = autoLabelInput();

/** Everything an error shows, its cause chain included. */
function everyView(error: unknown): string {
  const out: string[] = [];
  let link: unknown = error;
  for (let depth = 0; link && depth < 10; depth++) {
    const e = link as Error;
    out.push(e.message, e.stack ?? '', inspect(e, { showHidden: true, depth: 20 }), JSON.stringify(e) ?? '');
    link = (e as { cause?: unknown }).cause;
  }
  return out.join('\n');
}

describe('answers cut or too large', () => {
  let server: MockServer;
  let client: LabelingClient;
  let close: () => Promise<void>;
  beforeEach(async () => {
    ({ server, client, close } = await startMockClient({ retry: { maxAttempts: 2, initialDelayMs: 100 } }));
  });
  afterEach(async () => {
    vi.useRealTimers();
    await close();
  });

  it('retries a query whose connection drops mid-body after the 200 headers', async () => {
    useFakeClock();
    server.plan({ cut: true });
    let result: unknown;
    void getJobs(client, ['j']).then((v) => (result = v), (e: unknown) => (result = e));
    await until(() => server.graphqlRequests().length === 1, 'the first request');
    await advance(500);
    await until(() => result !== undefined, 'the call to settle');
    expect(result).toEqual([null]);
    expect(server.graphqlRequests()).toHaveLength(2);
  });

  it('does not retry a mutation whose connection drops mid-body, and says its outcome is unknown', async () => {
    server.plan({ cut: true });
    const error = (await startAutoLabel(client, input).catch((e: unknown) => e)) as NetworkError;
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ code: 'NETWORK', mutationOutcomeUnknown: true });
    expect(error.message).toMatch(/^\[Network\] the connection to http:\/\/127\.0\.0\.1:\d+\/graphql was lost while reading the answer \(HTTP 200\)/);
    expect(server.graphqlRequests()).toHaveLength(1);
  });

  it.each([
    ['a 200 HTML page', 200, ProtocolError],
    ['a 502 HTML page without status text', 502, NetworkError],
  ])('keeps at most a few KB of %s of 8 MB in the error', async (_name, status, kind) => {
    const page = `<html>${'<p>lorem ipsum</p>'.repeat(8 * 1024 * 1024 / 18)}</html>`;
    server.plan({ status, statusText: '', headers: { 'content-type': 'text/html' }, body: page }, { status, statusText: '', headers: { 'content-type': 'text/html' }, body: page });
    const error = await startAutoLabel(client, input).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(kind);
    const cause = (error as { cause?: Error }).cause!;
    expect(cause.message).toContain('<p>lorem ipsum</p>');
    expect(cause.message.length).toBeLessThanOrEqual(2_049);
    expect((cause.stack ?? '').length).toBeLessThanOrEqual(4_097);
    // Every view together (message, stack, inspect, JSON, each repeating the cause) stays far below the 8 MB.
    expect(everyView(error).length).toBeLessThan(64_000);
  });
});
