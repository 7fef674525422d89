// What a call of `request` is told besides its signal and time-out: `check` (what the answer must
// hold besides the selected fields, typed by the document) and `outcomeHint` (what a mutation of
// unknown outcome tells the caller), a documented option, checked before anything is sent.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { GetCabinetDocument } from '../../generated/tags/graphql.js';
import type { GetCabinetQuery } from '../../generated/tags/graphql.js';
import { ProtocolError, ValidationError } from '../../src/client/index.js';
import type { RequestOptions } from '../../src/client/index.js';
import { startMockClient } from '../support/mockServer.js';

const cabinetAnswer = { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: { getCabinet: { id: 'c1' } } }) };

describe('the options of request', () => {
  it('rejects an answer its check refuses with BAD_RESPONSE, and gives the check the typed data', async () => {
    const { server, client, close } = await startMockClient({ retry: { maxAttempts: 1 } });
    try {
      server.plan(cabinetAnswer);
      const seen: string[] = [];
      const error = await client
        .request(GetCabinetDocument, { projectId: 'p', role: 'LABELER' }, { check: (data) => (seen.push(data.getCabinet.id), 'the cabinet is not the one asked') })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProtocolError);
      expect(error).toMatchObject({ code: 'BAD_RESPONSE', message: expect.stringMatching(/^\[\w+\] the cabinet is not the one asked \(operation GetCabinet, request /) });
      expect(seen).toEqual(['c1']);
      server.plan(cabinetAnswer);
      expect(await client.request(GetCabinetDocument, { projectId: 'p', role: 'LABELER' }, { check: () => undefined })).toEqual({ getCabinet: { id: 'c1' } });
    } finally {
      await close();
    }
  });

  it('refuses a check that is not a function and a hint that is not a string before anything is sent', async () => {
    const { server, client, close } = await startMockClient();
    try {
      const options = { check: 'yes', outcomeHint: 7 } as unknown as RequestOptions;
      const error = await client.request(GetCabinetDocument, { projectId: 'p', role: 'LABELER' }, options).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).problems).toEqual([
        { path: 'options.check', message: 'must be a function' },
        { path: 'options.outcomeHint', message: 'must be a string' },
      ]);
      expect(server.requests).toHaveLength(0);
    } finally {
      await close();
    }
  });

  it('types check by the document', () => {
    expectTypeOf<Parameters<NonNullable<RequestOptions<GetCabinetQuery>['check']>>[0]>().toEqualTypeOf<GetCabinetQuery>();
  });
});
