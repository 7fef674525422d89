import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { createLabelingClient } from '../../src/client/index.js';
import type { LabelingClient } from '../../src/client/index.js';
import { DEMO_PROJECT_ID, startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { SCHEMA_GENERATIONS } from '../../src/shared/schemaGeneration.js';

const CLIENT_SECRET = 'client-secret-SENTINEL-42';

let emu: RunningEmulator | undefined;
let client: LabelingClient | undefined;
afterEach(async () => {
  client?.close();
  await emu?.close();
  emu = client = undefined;
});

describe.each(SCHEMA_GENERATIONS)('with the emulator speaking the %s schema', (schemaGeneration) => {
  describe('startEmulator auth through the public client', () => {
    it('answers the client when it sends the static token', async () => {
      emu = await startEmulator({ schemaGeneration });
      client = createLabelingClient({ url: emu.url, token: emu.token });
      expect(await client.getCabinet(DEMO_PROJECT_ID, 'LABELER')).toEqual({ id: 'demo-project:labeler' });
      const sets = await client.getLabelSets('demo-project:labeler');
      expect(sets.map((s) => [s.index, s.name, s.labelItems.map((i) => i.labelName)])).toEqual([[0, 'Entities', ['ENTITY', 'PERSON', 'ORGANIZATION', 'LOCATION', 'DATE']]]);
    });

    it('makes the client fail with an AuthError that does not hold the token when the token is wrong', async () => {
      emu = await startEmulator({ schemaGeneration });
      client = createLabelingClient({ url: emu.url, token: 'wrong-token-SENTINEL' });
      const error = await client.getCabinet(DEMO_PROJECT_ID, 'LABELER').catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'AuthError', code: 'AUTH' });
      expect(`${inspect(error)} ${JSON.stringify(error)}`).not.toContain('wrong-token-SENTINEL');
    });

    it('lets the client fetch a new token with client credentials when the emulator expired the old one', async () => {
      const log: string[] = [];
      emu = await startEmulator({ schemaGeneration, clientId: 'cid', clientSecret: CLIENT_SECRET, tokenTtlSeconds: 0.2, log: (l) => log.push(l) });
      client = createLabelingClient({ url: emu.url, clientCredentials: { clientId: 'cid', clientSecret: CLIENT_SECRET } });
      expect(await client.getCabinet(DEMO_PROJECT_ID, 'LABELER')).toEqual({ id: 'demo-project:labeler' });
      await new Promise((r) => setTimeout(r, 300)); // the emulator's token has expired by now
      expect(await client.getCabinet(DEMO_PROJECT_ID, 'REVIEWER')).toEqual({ id: 'demo-project:reviewer' });
      expect(log.filter((l) => l.startsWith('POST /api/oauth/token 200')).length).toBe(2);
      expect(log.join('\n')).not.toContain(CLIENT_SECRET);
    });

    it('makes the client fail with an AuthError when the client secret is wrong', async () => {
      emu = await startEmulator({ schemaGeneration, clientId: 'cid', clientSecret: CLIENT_SECRET });
      client = createLabelingClient({ url: emu.url, clientCredentials: { clientId: 'cid', clientSecret: 'not-the-secret' } });
      const error = await client.getCabinet(DEMO_PROJECT_ID, 'LABELER').catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'AUTH' });
      expect(String((error as Error).message)).not.toContain('not-the-secret');
    });
  });
});
