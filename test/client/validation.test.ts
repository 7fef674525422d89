import { describe, expect, it } from 'vitest';
import { clientCredentials, createLabelingClient, getCabinet, getJobs, getLabelSets, startAutoLabel, refreshingToken, validateAutoLabelInput, ValidationError, waitForJob, waitForJobOrThrow, waitForJobs } from '../../src/client/index.js';
import { mockJob, startMockServer } from '../support/mockServer.js';

const valid = {
  projectId: 'p1',
  labelerEmail: 'ann@example.com',
  options: { numberOfFilesPerRequest: 2, serviceProvider: 'CUSTOM' },
  targetAPI: { endpoint: 'https://model.example.com/predict', secretKey: 'k' },
};

describe('validateAutoLabelInput', () => {
  it('accepts a valid input, a loopback http endpoint, and an absent provider', () => {
    expect(validateAutoLabelInput(valid)).toEqual([]);
    expect(validateAutoLabelInput({ ...valid, targetAPI: { endpoint: 'http://127.0.0.1:8080/p', secretKey: 'k' } })).toEqual([]);
    expect(validateAutoLabelInput({ ...valid, targetAPI: { endpoint: 'http://localhost/p', secretKey: 'k' } })).toEqual([]);
    expect(validateAutoLabelInput({ ...valid, options: { numberOfFilesPerRequest: 0 } })).toEqual([]);
  });

  it.each([
    ['projectId', { projectId: '  ' }, 'input.projectId', 'must be a non-empty string'],
    ['e-mail', { labelerEmail: 'ann' }, 'input.labelerEmail', 'must be an e-mail address'],
    ['role', { role: 'ADMIN' }, 'input.role', 'must be one of LABELER, REVIEWER'],
    ['negative files', { options: { numberOfFilesPerRequest: -1 } }, 'input.options.numberOfFilesPerRequest', 'integer >= 0'],
    ['fractional files', { options: { numberOfFilesPerRequest: 1.5 } }, 'input.options.numberOfFilesPerRequest', 'integer >= 0'],
    ['provider', { options: { numberOfFilesPerRequest: 1, serviceProvider: 'SPACY' } }, 'input.options.serviceProvider', 'must be CUSTOM'],
    ['relative endpoint', { targetAPI: { endpoint: '/predict', secretKey: 'k' } }, 'input.targetAPI.endpoint', 'absolute http(s) URL'],
    ['ftp endpoint', { targetAPI: { endpoint: 'ftp://x.example.com/', secretKey: 'k' } }, 'input.targetAPI.endpoint', 'must use http or https'],
    ['clear-text endpoint', { targetAPI: { endpoint: 'http://model.example.com/', secretKey: 'k' } }, 'input.targetAPI.endpoint', 'secret key would travel in clear'],
    ['credentials in URL', { targetAPI: { endpoint: 'https://u:p@model.example.com/', secretKey: 'k' } }, 'input.targetAPI.endpoint', 'must not carry credentials'],
    ['empty secret', { targetAPI: { endpoint: 'https://model.example.com/', secretKey: '' } }, 'input.targetAPI.secretKey', 'must be a non-empty string'],
    ['no options', { options: undefined }, 'input.options', 'must be an object'],
    ['files as text', { options: { numberOfFilesPerRequest: '2' } }, 'input.options.numberOfFilesPerRequest', 'integer >= 0'],
    ['blank secret', { targetAPI: { endpoint: 'https://model.example.com/', secretKey: '   ' } }, 'input.targetAPI.secretKey', 'must be a non-empty string'],
    ['private-network http', { targetAPI: { endpoint: 'http://10.0.0.7:8080/', secretKey: 'k' } }, 'input.targetAPI.endpoint', 'allowInsecureEndpoint'],
    ['no targetAPI', { targetAPI: undefined }, 'input.targetAPI', 'must be an object with endpoint and secretKey'],
    ['e-mail with a space', { labelerEmail: 'ann smith@example.com' }, 'input.labelerEmail', 'must be an e-mail address'],
  ])('names the field and the rule for a bad %s', (_name, patch, path, rule) => {
    const problems = validateAutoLabelInput({ ...valid, ...patch });
    expect(problems).toHaveLength(1);
    expect(problems[0]!.path).toBe(path);
    expect(problems[0]!.message).toContain(rule);
  });

  it.each(['http://[::1]:8080/p', 'http://127.5.5.5/p', 'http://localhost:3000/'])('accepts the loopback endpoint %s over http', (endpoint) => {
    expect(validateAutoLabelInput({ ...valid, targetAPI: { endpoint, secretKey: 'k' } })).toEqual([]);
  });

  it('refuses a non-object input as a whole', () => {
    expect(validateAutoLabelInput(null)).toEqual([{ path: 'input', message: 'must be an object' }]);
  });

  it('never quotes the secret key in a problem', () => {
    const secretKey = 'SENTINEL-key-9d1';
    const problems = validateAutoLabelInput({ ...valid, labelerEmail: secretKey, targetAPI: { endpoint: `http://example.com/${secretKey}`, secretKey } });
    expect(problems).toHaveLength(2);
    expect(JSON.stringify(problems)).not.toContain(secretKey);
  });

  it('allows clear-text http elsewhere only when asked', () => {
    const input = { ...valid, targetAPI: { endpoint: 'http://model.internal/', secretKey: 'k' } };
    expect(validateAutoLabelInput(input, { allowInsecureEndpoint: true })).toEqual([]);
  });

  it('lists every problem at once', () => {
    const problems = validateAutoLabelInput({ projectId: '', labelerEmail: 'x', options: { numberOfFilesPerRequest: -2 }, targetAPI: { endpoint: 'nope', secretKey: '' } });
    expect(problems.map((p) => p.path)).toEqual([
      'input.projectId',
      'input.labelerEmail',
      'input.options.numberOfFilesPerRequest',
      'input.targetAPI.endpoint',
      'input.targetAPI.secretKey',
    ]);
  });
});

describe('client validation before any network call', () => {
  // A fetch that fails the test if it is ever called.
  const fetchSpy = () => {
    throw new Error('no request may be sent for invalid input');
  };
  const client = createLabelingClient({ url: 'http://127.0.0.1:9/graphql', token: 't', fetch: fetchSpy as unknown as typeof fetch });

  it.each([
    // Reads take their typed arguments as they are (a wrong id is the service's to refuse); waits,
    // which would poll for nothing, and the mutation, which starts a paid job, are checked.
    ['waitForJob', () => waitForJob(client, ' '), ['jobId']],
    ['waitForJobs', () => waitForJobs(client, ['a', '']), ['jobIds[1]']],
    ['startAutoLabel', () => startAutoLabel(client, { ...valid, projectId: '' } as never), ['input.projectId']],
  ])('rejects bad input to %s with a ValidationError', async (_name, call, paths) => {
    const error = await call().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).problems.map((p) => p.path)).toEqual(paths);
  });

  it.each([
    ['no credentials', { url: 'http://127.0.0.1/graphql' }, ['options']],
    ['two credentials', { url: 'http://127.0.0.1/graphql', token: 't', auth: refreshingToken(() => 't') }, ['options']],
    ['the credential options of before the factories', { url: 'http://127.0.0.1/graphql', clientCredentials: { clientId: 'i', clientSecret: 's' }, getToken: () => 't' }, ['options', 'options.clientCredentials', 'options.getToken']],
    ['an auth that no factory made', { url: 'http://127.0.0.1/graphql', auth: { getToken: () => 't' } }, ['options.auth']],
    ['a getToken that is not a function', { url: 'http://127.0.0.1/graphql', auth: refreshingToken('t' as never, { tokenTimeoutMs: 0 }) }, ['options.auth.getToken', 'options.auth.tokenTimeoutMs']],
    ['a blank token', { url: 'http://127.0.0.1/graphql', token: ' ' }, ['options.token']],
    ['a token with a line break', { url: 'http://127.0.0.1/graphql', token: 'abc\ndef' }, ['options.token']],
    ['a token with a control character', { url: 'http://127.0.0.1/graphql', token: 'abc\u0007def' }, ['options.token']],
    ['a token ending in a space (fetch would send it trimmed)', { url: 'http://127.0.0.1/graphql', token: 'abc def ' }, ['options.token']],
    ['a relative url', { url: '/graphql', token: 't' }, ['options.url']],
    ['a ws url', { url: 'ws://127.0.0.1/graphql', token: 't' }, ['options.url']],
    [
      'empty client credentials',
      { url: 'http://127.0.0.1/graphql', auth: clientCredentials({ clientId: '', clientSecret: '' }) },
      ['options.auth.clientId', 'options.auth.clientSecret'],
    ],
    [
      'bad numbers',
      { url: 'http://127.0.0.1/graphql', token: 't', timeoutMs: 0, retry: { maxAttempts: 1.5, initialDelayMs: -1 }, poll: { intervalMs: Number.NaN } },
      ['options.timeoutMs', 'options.retry.maxAttempts', 'options.retry.initialDelayMs', 'options.poll.intervalMs'],
    ],
  ])('refuses client options with %s', (_name, options, paths) => {
    const error = (() => {
      try {
        createLabelingClient(options as never);
      } catch (e) {
        return e;
      }
    })() as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.problems.map((p) => p.path)).toEqual(paths);
  });

  it('refuses unusable client options', () => {
    expect(() => createLabelingClient({ url: 'not a url' })).toThrow(
      expect.objectContaining({
        code: 'VALIDATION',
        problems: [
          { path: 'options.url', message: expect.stringContaining('absolute http(s) URL') },
          { path: 'options', message: expect.stringContaining('exactly one of token, auth (clientCredentials(…) or refreshingToken(…))') },
        ],
      }),
    );
  });
});

describe('per-call and per-wait options', () => {
  it('refuses bad wait and call options with a ValidationError naming each option, and sends nothing', async () => {
    const server = await startMockServer();
    const client = createLabelingClient({ url: server.url, token: 'test-token' });
    try {
      const problemsOf = async (call: Promise<unknown>) => {
        const error = await call.then(() => undefined, (e: unknown) => e);
        expect(error).toBeInstanceOf(ValidationError);
        return (error as ValidationError).problems.map((p) => `${p.path}: ${p.message}`);
      };
      expect(await problemsOf(waitForJob(client, 'j', { intervalMs: 0 }))).toEqual(['options.intervalMs: must be a number >= 1']);
      expect(await problemsOf(waitForJob(client, 'j', { timeoutMs: -5, maxIntervalMs: Number.NaN }))).toEqual([
        'options.timeoutMs: must be a number >= 1',
        'options.maxIntervalMs: must be a number >= 1',
      ]);
      expect(await problemsOf(waitForJobs(client, ['j', 'k'], { signal: {} as AbortSignal, notFoundGraceMs: -1, onProgress: 'x' as never }))).toEqual([
        'options.notFoundGraceMs: must be a number >= 0',
        'options.signal: must be an AbortSignal',
        'options.onProgress: must be a function',
      ]);
      expect(await problemsOf(waitForJobOrThrow(client, '', { intervalMs: -1 }))).toEqual(['jobId: must be a non-empty string', 'options.intervalMs: must be a number >= 1']);
      expect(await problemsOf(getCabinet(client, 'p', 'LABELER', { timeoutMs: 0 }))).toEqual(['options.timeoutMs: must be a number >= 1']);
      expect(await problemsOf(getJobs(client, ['j'], { signal: 'stop' as never }))).toEqual(['options.signal: must be an AbortSignal']);
      expect(await problemsOf(getLabelSets(client, 'c', { timeoutMs: -1 }))).toEqual(['options.timeoutMs: must be a number >= 1']);
      expect(await problemsOf(startAutoLabel(client, valid as never, { timeoutMs: -1 }))).toEqual(['options.timeoutMs: must be a number >= 1']);
      expect(server.graphqlRequests()).toHaveLength(0);
      // Good options pass: Infinity waits without limit, and an AbortSignal is accepted.
      server.jobs.set('j', mockJob('j', { status: 'DELIVERED', progress: 100 }));
      const outcome = await waitForJob(client, 'j', { timeoutMs: Infinity, intervalMs: 10, signal: new AbortController().signal });
      expect(outcome.outcome).toBe('delivered');
    } finally {
      client.close();
      await server.close();
    }
  });
});
