/**
 * Profiles emulator jobs alone, for `node --cpu-prof`: the sample model in its own process, jobs of
 * D documents (default 2) × 1,000 flat lines (benchProject.mjs) at N lines per request, polled every
 * 200 ms as the benchmark does, each followed by the raw caller on the same documents:
 * `npx tsx --cpu-prof --cpu-prof-dir=/tmp/prof bench/support/profileEmulatorJob.ts [linesPerRequest] [jobs] [docs] [both|emulator|raw]`,
 * then `tsx bench/support/summarizeProfile.ts /tmp/prof/*.cpuprofile`. The emulator comes from
 * `packages/labelkit-tools/dist/` (run `npm run build` after changing it). Under load, a profile's samples are taken by
 * wall clock and count time the process waited for a core; compare CPU times, printed per job.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createLabelingClient, startAutoLabel, waitForJob } from '../../src/client/index.js';
import type * as EmulatorEntry from '../../src/emulator/index.js';
import { BENCH_LABEL_SETS, benchProject } from './benchProject.mjs';
import { rawModelCaller, startModelProcess } from './rawModelCaller.js';

const perRequest = Number(process.argv[2] ?? 1);
const jobs = Number(process.argv[3] ?? 5);
const docs = Number(process.argv[4] ?? 2);
/** `emulator` or `raw` to run one side only (a profile of one side), `both` (the default) to compare. */
const side = process.argv[5] ?? 'both';
const SECRET = 'profile-secret';
// The emulator from the build (`npm run build` first), as the benchmark runs it: tsx's transform
// of the sources adds a naming call per function created, which shows in a profile.
const built = pathToFileURL(join(import.meta.dirname, '..', '..', 'packages', 'labelkit-tools', 'dist', 'emulator.js')).href;
const { startEmulator } = (await import(built)) as typeof EmulatorEntry;
const { documents } = benchProject('p', docs, 1_000);
const model = await startModelProcess(SECRET);
const emu = await startEmulator({ demoProject: false, model: { concurrency: 4 } });
emu.emulator.store.addProject({ id: 'p', name: 'p', documents, labelSets: BENCH_LABEL_SETS });
const client = createLabelingClient({ url: emu.url, token: emu.token, poll: { intervalMs: 200, maxIntervalMs: 200 } });
const cpuMs = (since: NodeJS.CpuUsage) => {
  const { user, system } = process.cpuUsage(since);
  return `${((user + system) / 1000).toFixed(0)} = ${(user / 1000).toFixed(0)} user + ${(system / 1000).toFixed(0)} sys`;
};
for (let j = 0; j < jobs; j++) {
  const said: string[] = [];
  if (side !== 'raw') {
    const cpu = process.cpuUsage();
    const job = await startAutoLabel(client, { projectId: 'p', labelerEmail: 'p@example.com', options: { numberOfFilesPerRequest: perRequest }, targetAPI: { endpoint: model.url, secretKey: SECRET } });
    const outcome = await waitForJob(client, job.id, { timeoutMs: 600_000 });
    said.push(`job ${outcome.outcome} in ${outcome.job ? Date.parse(outcome.job.updatedAt) - Date.parse(outcome.job.createdAt) : Number.NaN} ms (${cpuMs(cpu)} ms CPU)`);
  }
  if (side !== 'emulator') {
    const cpu = process.cpuUsage();
    const raw = await rawModelCaller({ id: 'p', name: 'p', documents }, perRequest, model.url, SECRET, 4);
    said.push(`raw caller ${raw.ms.toFixed(0)} ms (${cpuMs(cpu)} ms CPU)`);
  }
  console.log(said.join('; '));
}
client.close();
await emu.close();
await model.close();
