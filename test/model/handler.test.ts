import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSampleModel, startModelServer } from '../../src/model/index.js';
import type { RunningModelServer, SpanRequest, SpanResponse } from '../../src/model/index.js';

const SECRET = 'model-secret-SENTINEL-kit';
const request: SpanRequest = { id: 'p', name: 'P', documents: [{ id: 'd', sentences: [{ id: 0, text: 'Ada Lovelace met Alan Turing in London.' }] }] };

describe('createModelHandler over startModelServer', () => {
  let model: RunningModelServer;
  beforeAll(async () => {
    model = await startModelServer({ secretKey: SECRET });
  });
  afterAll(async () => {
    await model.close();
  });
  const call = (body: unknown, auth: string | null = `Bearer ${SECRET}`, method = 'POST') =>
    fetch(model.url, { method, headers: { 'content-type': 'application/json', ...(auth && { authorization: auth }) }, ...(method === 'POST' && { body: typeof body === 'string' ? body : JSON.stringify(body) }) });

  it('answers a typed round trip with the sample model', async () => {
    const res = await call(request);
    expect(res.status).toBe(200);
    const body = (await res.json()) as SpanResponse;
    expect(body.documents[0]!.labels[0]!.entities.map((e) => [e.label, e.start_char, e.end_char])).toEqual([
      ['PERSON', 0, 12],
      ['PERSON', 17, 28],
      ['LOCATION', 32, 38],
    ]);
  });

  it.each([
    ['a wrong secret', 'Bearer nope'],
    ['no secret', null],
  ])('refuses %s with 401 and never echoes it', async (_n, auth) => {
    const res = await call(request, auth);
    expect(res.status).toBe(401);
    const text = await res.text();
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('nope');
  });

  it('answers a malformed body with 400 listing every problem', async () => {
    expect((await call('{oops')).status).toBe(400);
    const res = await call({ id: '', documents: [{ id: 'd', sentences: [{ id: -1, text: 3 }] }] });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { problems: { path: string }[] }).problems.map((p) => p.path)).toEqual([
      '$.id',
      '$.name',
      '$.documents[0].sentences[0].id',
      '$.documents[0].sentences[0].text',
    ]);
  });

  it('accepts only POST', async () => {
    expect((await call(undefined, `Bearer ${SECRET}`, 'GET')).status).toBe(405);
  });

  it('answers 500 when its own prediction breaks the contract', async () => {
    const broken = await startModelServer({
      secretKey: SECRET,
      predict: (r) => ({ id: r.id, documents: [{ id: 'd', labels: [{ id: 0, entities: [{ label: 'X', start_char: 5, end_char: 500 }] }] }] }),
    });
    try {
      const res = await fetch(broken.url, { method: 'POST', headers: { authorization: `Bearer ${SECRET}` }, body: JSON.stringify(request) });
      expect(res.status).toBe(500);
      expect(await res.text()).toContain('start_char/end_char must satisfy');
    } finally {
      await broken.close();
    }
  });
});

describe('createSampleModel', () => {
  it('matches case-insensitively, whole words only, longest first, without overlaps', async () => {
    const predict = createSampleModel({ terms: { ORG: ['acme', 'Acme Corp'], CITY: ['Paris'] } });
    const text = 'ACME CORP and acme, not Acmes; paris. Parisian';
    const out = (await predict({ id: 'p', name: 'p', documents: [{ id: 'd', sentences: [{ id: 0, text }] }] })).documents[0]!.labels[0]!.entities;
    expect(out.map((e) => [e.label, text.slice(e.start_char, e.end_char)])).toEqual([
      ['ORG', 'ACME CORP'],
      ['ORG', 'acme'],
      ['CITY', 'paris'],
    ]);
  });
});
