import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PROJECT_ID, startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { serviceContract } from './serviceContract.js';
import type { ContractTarget } from './serviceContract.js';

describe('startEmulator keeps the service contract over HTTP', () => {
  let emu: RunningEmulator;
  let target: ContractTarget;
  beforeAll(async () => {
    emu = await startEmulator({ model: { timeoutMs: 200, retries: 0 } });
    target = { url: emu.url, token: emu.token, projectId: DEMO_PROJECT_ID, tokenUrl: `${emu.baseUrl}/api/oauth/token`, clientId: emu.clientId, clientSecret: emu.clientSecret };
  });
  afterAll(async () => {
    await emu.close();
  });

  it('lists each rule once, with a MUST or SHOULD sentence', () => {
    const ids = serviceContract.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of serviceContract) expect(r.rule.startsWith(r.level)).toBe(true);
  });

  it.each(serviceContract.map((r) => [r.id, r.rule, r] as const))('%s: %s', async (_id, _rule, r) => {
    await r.check(target);
  });
});

/**
 * The same list against a real deployment, when one is given (never in CI: no outside network):
 * LABELKIT_CONTRACT_URL, LABELKIT_CONTRACT_TOKEN, LABELKIT_CONTRACT_PROJECT, and for the token
 * rule LABELKIT_CONTRACT_CLIENT_ID / LABELKIT_CONTRACT_CLIENT_SECRET. Rules that start jobs are skipped.
 */
const remote = process.env.LABELKIT_CONTRACT_URL;
describe.skipIf(!remote)('a real service keeps the same contract', () => {
  const env = process.env;
  const target: ContractTarget = {
    url: remote ?? '',
    token: env.LABELKIT_CONTRACT_TOKEN ?? '',
    projectId: env.LABELKIT_CONTRACT_PROJECT ?? '',
    tokenUrl: new URL('/api/oauth/token', remote ?? 'http://x').toString(),
    clientId: env.LABELKIT_CONTRACT_CLIENT_ID ?? '',
    clientSecret: env.LABELKIT_CONTRACT_CLIENT_SECRET ?? '',
  };
  it.each(serviceContract.filter((r) => !r.emulatorOnly).map((r) => [r.id, r.rule, r] as const))('%s: %s', async (_id, _rule, r) => {
    await r.check(target);
  });
});
