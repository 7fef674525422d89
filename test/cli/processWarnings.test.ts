// Issue 40: `labelkit eval --errors` on a 120-document project printed Node's
// `MaxListenersExceededWarning: 11 abort listeners added to [AbortSignal]` every time. The built
// CLI runs against the emulator over real HTTP, and its stderr must hold no process warning.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLabelingClient, startAutoLabel, waitForJob } from '../../src/client/index.js';
import { startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { runCli } from '../support/spawnCli.js';
import { startStubModel } from '../support/stubModel.js';
import type { StubModel } from '../support/stubModel.js';

const PROJECT = 'hundred-twenty';
const MODEL = 'model@example.com';
const DOCUMENTS = 120;

let emu: RunningEmulator;
let model: StubModel;
let tmp: string;

beforeAll(async () => {
  emu = await startEmulator({ demoProject: false });
  emu.emulator.store.addProject({
    id: PROJECT,
    labelSets: [{ name: 'Entities', labels: [{ id: 'per', name: 'PERSON' }, { id: 'loc', name: 'LOCATION' }] }],
    documents: Array.from({ length: DOCUMENTS }, (_, i) => ({ id: `d${i}`, name: `d${i}.txt`, lines: [`Ada Lovelace visited London on day ${i}`, 'Grace Hopper stayed'] })),
  });
  for (let i = 0; i < DOCUMENTS; i++) emu.emulator.store.setReviewLabels(PROJECT, `d${i}`, [{ line: 0, start_char: 0, end_char: 12, text: 'Ada Lovelace', label: 'PERSON' }]);
  model = await startStubModel();
  const client = createLabelingClient({ url: emu.url, token: emu.token, poll: { intervalMs: 20 } });
  try {
    const job = await startAutoLabel(client, { projectId: PROJECT, labelerEmail: MODEL, options: { numberOfFilesPerRequest: 0 }, targetAPI: { endpoint: model.url, secretKey: 'model-secret' } });
    expect((await waitForJob(client, job.id, { timeoutMs: 30_000 })).outcome).toBe('delivered');
  } finally {
    client.close();
  }
  tmp = await mkdtemp(join(tmpdir(), 'labelkit-warnings-'));
}, 60_000);

afterAll(async () => {
  await Promise.all([emu?.close(), model?.close()]);
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('the CLI prints no process warning', () => {
  const commands: [string, () => string[]][] = [
    ['eval --errors on 120 documents', () => ['eval', '--project', PROJECT, '--labeler', MODEL, '--errors', join(tmp, 'errors.csv')]],
    ['eval --ci --json on 120 documents', () => ['eval', '--project', PROJECT, '--labeler', MODEL, '--ci', '--seed', '1', '--json']],
  ];
  for (const [name, args] of commands) {
    it(`${name}: exit 0, and no "Warning" on stderr`, async () => {
      const run = await runCli(args(), { LABELKIT_URL: emu.url, LABELKIT_TOKEN: emu.token });
      expect(run.code, run.stderr).toBe(0);
      // Node writes every process warning as `(node:PID) SomeWarning: …` on stderr.
      expect(run.stderr).not.toMatch(/\(node:\d+\)|Warning:/);
    }, 60_000);
  }
});
