import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLabelingClient, getCabinet, getJob, isLabelkitError, LabelkitError, startAutoLabel } from '../../src/client/index.js';
import { AuthError, GraphQLRequestError, JobFailedError, JobNotFoundError, JobTimeoutError, LabelHierarchyError, NetworkError, ValidationError } from '../../src/client/errors.js';
import type { LabelingClient } from '../../src/client/index.js';
import { mockJob, projectSdl, startMockClient, startMockServer } from '../support/mockServer.js';
import type { MockServer } from '../support/mockServer.js';
import { autoLabelInput } from '../support/autoLabelInput.js';

const input = autoLabelInput();

async function failure(promise: Promise<unknown>): Promise<LabelkitError> {
  return promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => e as LabelkitError,
  );
}

describe('the error family over HTTP', () => {
  let server: MockServer;
  let client: LabelingClient;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ server, client, close } = await startMockClient({ retry: { initialDelayMs: 5, maxAttempts: 2 } }));
  });
  beforeEach(() => {
    server.requests.length = 0;
  });
  afterAll(async () => {
    await close();
  });

  it('gives a GraphQLRequestError with message, path and extensions when the service answers errors', async () => {
    server.plan({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        data: null,
        errors: [{ message: 'Cabinet not found', path: ['getCabinet'], extensions: { code: 'NOT_FOUND', type: 'NotFoundError' } }],
      }),
    });
    const error = await failure(getCabinet(client, 'nope', 'LABELER'));
    expect(error).toBeInstanceOf(GraphQLRequestError);
    expect(error.code).toBe('GRAPHQL');
    expect((error as GraphQLRequestError).graphQLErrors).toEqual([
      { message: 'Cabinet not found', path: ['getCabinet'], extensions: { code: 'NOT_FOUND', type: 'NotFoundError' } },
    ]);
    expect(error.operationName).toBe('GetCabinet');
    expect(error.message).toMatch(/^\[GraphQL\] Cabinet not found \(operation GetCabinet, request [0-9a-f-]{36}\)$/);
  });

  it('gives a GraphQLRequestError when the document does not fit the server (a real validation error)', async () => {
    // Schema drift: the service renamed a field the client selects.
    const other = await startMockServer({ typeDefs: projectSdl.replace(/\bresultId\b/, 'resultRef') });
    const c = createLabelingClient({ url: other.url, token: 'test-token' });
    try {
      const error = await failure(getJob(c, 'j1'));
      expect(error).toBeInstanceOf(GraphQLRequestError);
      expect((error as GraphQLRequestError).graphQLErrors[0]!.message).toContain('Cannot query field "resultId" on type "Job"');
    } finally {
      c.close();
      await other.close();
    }
  });

  it('carries the x-request-id the server received, so a support ticket can name the request', async () => {
    server.plan({ status: 500 }, { status: 500 });
    const error = await failure(getJob(client, 'j1'));
    expect(error).toBeInstanceOf(NetworkError);
    const sent = server.graphqlRequests().map((r) => r.headers['x-request-id']);
    expect(sent).toEqual([error.requestId, error.requestId]);
    expect(error.status).toBe(500);
    expect(error.operationName).toBe('GetJob');
  });

  it('names the refused connection and does not call a never-sent mutation uncertain', async () => {
    const closed = await startMockServer();
    const url = closed.url;
    await closed.close();
    const c = createLabelingClient({ url, token: 't', retry: { maxAttempts: 1 } });
    const error = (await failure(startAutoLabel(c, input))) as NetworkError;
    expect(error.code).toBe('NETWORK');
    expect(error.message).toContain('(ECONNREFUSED)');
    expect(error.mutationOutcomeUnknown).toBe(false);
    expect((error.cause as { name?: string } | undefined)?.name).toBe('TypeError');
    c.close();
  });

  it('keeps cause out of JSON and Object.keys, and leaves no urql operation or variables on the error', async () => {
    server.plan({ drop: true });
    const error = await failure(startAutoLabel(client, input));
    expect(error.cause).toBeInstanceOf(Error);
    expect(Object.keys(error)).not.toContain('cause');
    expect(Object.keys(JSON.parse(JSON.stringify(error)) as object).sort()).toEqual(
      ['code', 'message', 'mutationOutcomeUnknown', 'name', 'operationName', 'requestId'].sort(),
    );
    for (const value of Object.values(error)) expect(JSON.stringify(value) ?? '').not.toContain('variables');
  });
});

describe('LabelkitError subclasses', () => {
  const job = mockJob('j1', { status: 'FAILED', progress: 30, errors: [{ id: 'e', stack: 'first line\nsecond', args: null }] });

  it.each([
    ['ValidationError', new ValidationError([{ path: 'input.x', message: 'bad' }], { operationName: 'Op' }), 'VALIDATION', '[Validation] 1 problem: input.x: bad'],
    ['AuthError', new AuthError('no token'), 'AUTH', '[Auth] no token'],
    ['NetworkError', new NetworkError('TIMEOUT', 'slow'), 'TIMEOUT', '[Network] slow'],
    ['GraphQLRequestError', new GraphQLRequestError([{ message: 'a' }, { message: 'b' }]), 'GRAPHQL', '[GraphQL] a; b'],
    ['JobFailedError', new JobFailedError(job), 'JOB_FAILED', '[Job] job j1 failed with 1 error: first line'],
    ['JobTimeoutError', new JobTimeoutError('j1', null, 50), 'JOB_TIMEOUT', '[Job] job j1 did not end within 50 ms (never seen)'],
    ['JobNotFoundError', new JobNotFoundError('j1'), 'JOB_NOT_FOUND', '[Job] the service knows no job j1'],
    ['LabelHierarchyError', new LabelHierarchyError('s1', ['x', 'y']), 'LABEL_SET', '[LabelSet] label set s1: x; y'],
  ])('%s has its name, code and origin-prefixed message', (name, error, code, message) => {
    expect(error).toBeInstanceOf(LabelkitError);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe(name);
    expect(error.code).toBe(code);
    expect(error.message).toBe(message);
    expect(isLabelkitError(error)).toBe(true);
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({ name, code, message });
  });

  it('recognises an error of another copy of the package by its shape, and nothing else', () => {
    const foreign = Object.assign(new Error('[Auth] refused'), { code: 'AUTH' });
    expect(isLabelkitError(foreign)).toBe(true);
    expect(isLabelkitError(Object.assign(new Error('refused'), { code: 'AUTH' }))).toBe(false);
    expect(isLabelkitError(Object.assign(new Error('[Auth] x'), { code: 'ECONNRESET' }))).toBe(false);
    expect(isLabelkitError({ code: 'AUTH', message: '[Auth] x' })).toBe(false);
    expect(isLabelkitError(null)).toBe(false);
  });

  it('keeps the class of such an error when a custom fetch throws it: a foreign TIMEOUT stays a NetworkError, not an AuthError', async () => {
    const foreign = Object.assign(new Error('[Network] no answer within 5 ms'), { code: 'TIMEOUT' });
    const client = createLabelingClient({ url: 'http://127.0.0.1:9/graphql', token: 't', retry: { maxAttempts: 1 }, fetch: () => Promise.reject(foreign) });
    const error = await getJob(client, 'j1').catch((e: unknown) => e);
    client.close();
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ code: 'TIMEOUT', operationName: 'GetJob' });
    expect((error as Error).message).toMatch(/^\[Network\] no answer within 5 ms \(operation GetJob, request /);
  });
});
