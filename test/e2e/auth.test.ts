import { inspect } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clientCredentials, createLabelingClient, getCabinet, getLabelSets } from '../../src/client/index.js';
import type { LabelingClient } from '../../src/client/index.js';
import { DEMO_PROJECT_ID, startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { SCHEMA_GENERATIONS } from '../../src/shared/schemaGeneration.js';

const CLIENT_SECRET = 'client-secret-SENTINEL-42';

let emu: RunningEmulator | undefined;
let client: LabelingClient | undefined;
afterEach(async () => {
  vi.useRealTimers();
  client?.close();
  await emu?.close();
  emu = client = undefined;
});

describe.each(SCHEMA_GENERATIONS)('with the emulator speaking the %s schema', (schemaGeneration) => {
  describe('startEmulator auth through the public client', () => {
    it('answers the client when it sends the static token', async () => {
      emu = await startEmulator({ schemaGeneration });
      client = createLabelingClient({ url: emu.url, token: emu.token });
      expect(await getCabinet(client, DEMO_PROJECT_ID, 'LABELER')).toEqual({ id: 'demo-project:labeler' });
      const sets = await getLabelSets(client, 'demo-project:labeler');
      expect(sets.map((s) => [s.index, s.name, s.labelItems.map((i) => i.labelName)])).toEqual([[0, 'Entities', ['ENTITY', 'PERSON', 'ORGANIZATION', 'LOCATION', 'DATE']]]);
    });

    it('makes the client fail with an AuthError that does not hold the token when the token is wrong', async () => {
      emu = await startEmulator({ schemaGeneration });
      client = createLabelingClient({ url: emu.url, token: 'wrong-token-SENTINEL' });
      const error = await getCabinet(client, DEMO_PROJECT_ID, 'LABELER').catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'AuthError', code: 'AUTH' });
      expect(`${inspect(error)} ${JSON.stringify(error)}`).not.toContain('wrong-token-SENTINEL');
    });

    it('refreshes the token and repeats the call when the emulator refuses a token the client still holds as valid', async () => {
      // The emulator answers the grant with whole seconds (expires_in: 1 for a 0.2 s life) and the
      // client refreshes a token half-way through so short an advertised life: from 0.2 s to 0.5 s
      // after the grant, the emulator refuses a token the client still believes valid. Only Date
      // is faked (sockets and timers stay real): the clock stands at the grant until the test moves
      // it into that window, so neither load nor a slow answer can make the client refresh early.
      vi.useFakeTimers({ toFake: ['Date'] });
      const granted = Date.now();
      const log: string[] = [];
      emu = await startEmulator({ schemaGeneration, clientId: 'cid', clientSecret: CLIENT_SECRET, tokenTtlSeconds: 0.2, log: (l) => log.push(l) });
      // What the service answered, in order: the token route, or the GraphQL errors (ok: none).
      const exchanges: string[] = [];
      const recordingFetch: typeof fetch = async (input, init) => {
        const response = await fetch(input, init);
        const path = new URL(input instanceof Request ? input.url : String(input)).pathname;
        const body = path === '/graphql' ? ((await response.clone().json()) as { errors?: { message: string }[] }) : {};
        exchanges.push(`${path} ${response.status} ${body.errors?.map((e) => e.message).join(', ') ?? 'ok'}`);
        return response;
      };
      client = createLabelingClient({ url: emu.url, auth: clientCredentials({ clientId: 'cid', clientSecret: CLIENT_SECRET }), fetch: recordingFetch });
      expect(await getCabinet(client, DEMO_PROJECT_ID, 'LABELER')).toEqual({ id: 'demo-project:labeler' });
      vi.setSystemTime(granted + 300); // expired for the emulator (0.2 s), not yet due for the client (0.5 s)
      expect(await getCabinet(client, DEMO_PROJECT_ID, 'REVIEWER')).toEqual({ id: 'demo-project:reviewer' });
      // The refused call ran: Unauthorized, then one new token, then the same call again.
      expect(exchanges).toEqual([
        '/api/oauth/token 200 ok',
        '/graphql 200 ok',
        '/graphql 200 Unauthorized', // production's answer to an expired token
        '/api/oauth/token 200 ok',
        '/graphql 200 ok',
      ]);
      expect(log.filter((l) => l.startsWith('POST /api/oauth/token 200')).length).toBe(2);
      expect(log.join('\n')).not.toContain(CLIENT_SECRET);
    });

    it('makes the client fail with an AuthError when the client secret is wrong', async () => {
      emu = await startEmulator({ schemaGeneration, clientId: 'cid', clientSecret: CLIENT_SECRET });
      client = createLabelingClient({ url: emu.url, auth: clientCredentials({ clientId: 'cid', clientSecret: 'not-the-secret' }) });
      const error = await getCabinet(client, DEMO_PROJECT_ID, 'LABELER').catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'AUTH' });
      expect(String((error as Error).message)).not.toContain('not-the-secret');
    });
  });
});
