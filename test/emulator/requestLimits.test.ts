import { request as httpRequest } from 'node:http';
import type { ClientRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, DEMO_PROJECT_ID, startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { getIntrospectionQuery } from 'graphql';
import { MAX_BODY_BYTES, MAX_QUERY_ALIASES, MAX_QUERY_DEPTH, MAX_QUERY_TOKENS } from '../../src/emulator/requestLimits.js';

const TWENTY_MB = 20 * 1024 * 1024;

/**
 * Sends the headers of a POST and one small first piece of its body, never the rest, and resolves
 * with the answer. An answer can only arrive if the server answered from the headers: it never got
 * the body it was promised (a server that reads the whole body first would wait for ever).
 */
function answerBeforeBody(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    let req: ClientRequest | undefined = undefined;
    const first = Buffer.alloc(16 * 1024, 'x');
    req = httpRequest(url, { method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
        req?.destroy();
      });
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error);
    });
    req.write(first);
  });
}

describe('the emulator refuses oversized and over-complex requests', () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startEmulator({ staticToken: 'tok', clientId: 'cid', clientSecret: 'csecret' });
  });
  afterAll(async () => {
    await emu.close();
  });

  it('answers ten concurrent unauthenticated 20 MB POSTs from their headers, before reading the bodies', async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => answerBeforeBody(emu.url, { 'content-type': 'application/json', 'content-length': String(TWENTY_MB) })),
    );
    // Each answer arrived although only 16 KB of each 20 MB body was ever sent: nothing waited for (or buffered) the bodies.
    for (const answer of answers) {
      expect(JSON.parse(answer.body)).toEqual({ data: null, errors: [{ message: 'Unauthorized', extensions: { type: 'AuthenticationError' } }] });
    }
  });

  it('answers 413 with a GraphQL error before reading a body whose Content-Length is over the limit', async () => {
    const answer = await answerBeforeBody(emu.url, { 'content-type': 'application/json', authorization: 'Bearer tok', 'content-length': String(TWENTY_MB) });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ errors: [{ message: 'Request body too large', extensions: { code: 'REQUEST_ENTITY_TOO_LARGE' } }] });
  });

  it('answers 413 at the token route before reading a body whose Content-Length is over the limit', async () => {
    const answer = await answerBeforeBody(`${emu.baseUrl}/api/oauth/token`, { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(TWENTY_MB) });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ error: 'invalid_request', error_description: `the request body is larger than ${MAX_BODY_BYTES} bytes` });
  });

  it('answers 413 when a chunked body without Content-Length streams past maxBodyBytes', async () => {
    const small = await startEmulator({ staticToken: 'tok', maxBodyBytes: 64 * 1024 });
    try {
      const big = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(`{"query":"{ getJob(jobId: \\"${'x'.repeat(100 * 1024)}\\") { id } }"}`));
          controller.close();
        },
      });
      const res = await fetch(small.url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer tok' }, body: big, duplex: 'half' } as RequestInit);
      expect(res.status).toBe(413);
      expect(((await res.json()) as { errors: { extensions: { code: string } }[] }).errors[0]!.extensions.code).toBe('REQUEST_ENTITY_TOO_LARGE');
      const fits = await fetch(small.url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer tok' }, body: JSON.stringify({ query: '{ getJob(jobId: "x") { id } }' }) });
      expect(await fits.json()).toEqual({ data: { getJob: null } });
    } finally {
      await small.close();
    }
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses maxBodyBytes %s up front', (maxBodyBytes) => {
    expect(() => createEmulator({ maxBodyBytes })).toThrow('[Emulator] maxBodyBytes must be a whole number of bytes above 0');
  });

  it('refuses an operation deeper than the depth cap, naming the cap', async () => {
    // The schema itself nests 3 deep at most, so a deeper operation also breaks the schema; the cap is checked anyway.
    const deep = `{ getJob(jobId: "x") { ${'errors { '.repeat(MAX_QUERY_DEPTH - 1)}id${' }'.repeat(MAX_QUERY_DEPTH - 1)} } }`;
    const res = await fetch(emu.url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer tok' }, body: JSON.stringify({ query: deep }) });
    const body = (await res.json()) as { errors: { message: string; extensions: { code: string } }[] };
    expect(body.errors).toContainEqual({ message: `Query depth limit of ${MAX_QUERY_DEPTH} exceeded, found ${MAX_QUERY_DEPTH + 1}.`, extensions: { code: 'QUERY_TOO_DEEP' } });
  });

  it('refuses an operation with more aliases than the cap, and accepts one at the cap', async () => {
    const aliased = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: getCabinet(projectId: "${DEMO_PROJECT_ID}", role: LABELER) { id }`).join(' ')} }`;
    const ask = async (query: string) =>
      (await (await fetch(emu.url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer tok' }, body: JSON.stringify({ query }) })).json()) as {
        data?: Record<string, unknown>;
        errors?: unknown[];
      };
    expect(await ask(aliased(MAX_QUERY_ALIASES + 1))).toEqual({ errors: [{ message: `Aliases limit of ${MAX_QUERY_ALIASES} exceeded, found ${MAX_QUERY_ALIASES + 1}.`, extensions: { code: 'TOO_MANY_ALIASES' } }] });
    const atCap = await ask(aliased(MAX_QUERY_ALIASES));
    expect(atCap.errors).toBeUndefined();
    expect(Object.keys(atCap.data!)).toHaveLength(MAX_QUERY_ALIASES);
  });

  it('refuses a document of more tokens than the cap while reading it, naming the cap, and accepts one at the cap', async () => {
    const post = async (query: string, operationName?: string) => {
      const res = await fetch(emu.url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer tok' }, body: JSON.stringify({ query, operationName }) });
      return { status: res.status, body: (await res.json()) as { data?: Record<string, unknown>; errors?: { message: string; extensions?: { code?: string } }[] } };
    };
    // A request error, as a parse error is (HTTP 200 for an application/json answer, as for every GraphQL error).
    const refusal = {
      body: { errors: [{ message: `the document has more than ${MAX_QUERY_TOKENS} tokens (names, punctuation, values), the most one request may hold; split it into smaller requests`, extensions: { code: 'TOO_MANY_TOKENS' } }] },
    };
    // Issue 40 item 10: a 1 MiB query of 95,000 __typename fields, and 20,000 @include directives.
    const typenames = `{ ${'__typename '.repeat(95_000)}}`;
    expect(typenames.length).toBeLessThan(MAX_BODY_BYTES);
    expect(await post(typenames)).toMatchObject(refusal);
    expect(await post(`{ __typename ${'@include(if: true) '.repeat(20_000)}}`)).toMatchObject(refusal);
    // Operations of 5 tokens each (`query Qn { __typename }`): exactly the cap is answered, one token more refused.
    const operations = Array.from({ length: MAX_QUERY_TOKENS / 5 }, (_, i) => `query Q${i} { __typename }`);
    const atCap = await post(operations.join('\n'), 'Q0');
    expect(atCap).toMatchObject({ status: 200, body: { data: { __typename: 'Query' } } });
    expect(atCap.body.errors).toBeUndefined();
    expect(await post(`${operations.join('\n')} query Extra`, 'Q0')).toMatchObject(refusal);
    // GraphiQL's introspection query, with every option on, fits well under the cap.
    const introspection = await post(getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true }));
    expect(introspection.status).toBe(200);
    expect(introspection.body.errors).toBeUndefined();
  });

  it('counts aliases of __typename (and aliases named __typename) towards the alias cap', async () => {
    // graphql-armor leaves __typename out of the count by default, so 40 such aliases used to pass a cap of 15.
    const ask = async (query: string) =>
      (await (await fetch(emu.url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer tok' }, body: JSON.stringify({ query }) })).json()) as {
        data?: Record<string, unknown>;
        errors?: unknown[];
      };
    const typenames = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `t${i}: __typename`).join(' ')} }`;
    expect(await ask(typenames(40))).toEqual({ errors: [{ message: `Aliases limit of ${MAX_QUERY_ALIASES} exceeded, found 40.`, extensions: { code: 'TOO_MANY_ALIASES' } }] });
    const namedTypename = `{ ${Array.from({ length: MAX_QUERY_ALIASES + 1 }, (_, i) => `${i === 0 ? '__typename' : `a${i}`}: getJob(jobId: "x") { id }`).join(' ')} }`;
    expect(await ask(namedTypename)).toEqual({ errors: [{ message: `Aliases limit of ${MAX_QUERY_ALIASES} exceeded, found ${MAX_QUERY_ALIASES + 1}.`, extensions: { code: 'TOO_MANY_ALIASES' } }] });
    const atCap = await ask(typenames(MAX_QUERY_ALIASES));
    expect(atCap.errors).toBeUndefined();
    expect(atCap.data).toEqual(Object.fromEntries(Array.from({ length: MAX_QUERY_ALIASES }, (_, i) => [`t${i}`, 'Query'])));
  });

  it('answers 400 naming the rule when Basic credentials are not valid percent-encoding', async () => {
    const res = await fetch(`${emu.baseUrl}/api/oauth/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from('cid:50%-off').toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; error_description: string };
    expect(body.error).toBe('invalid_request');
    expect(body.error_description).toContain('not valid percent-encoding');
    expect(body.error_description).not.toContain('50%-off');
  });

  it('answers 400 naming the rule when the labels route has a project id that is not valid percent-encoding', async () => {
    const res = await fetch(`${emu.baseUrl}/emulator/projects/%E0%A4%A/labels`, { headers: { authorization: 'Bearer tok' } });
    expect([res.status, await res.json()]).toEqual([400, { error: 'the project id in the path is not valid percent-encoding (encode it with encodeURIComponent)' }]);
  });
});
