/**
 * Profiles emulator jobs alone, for `node --cpu-prof`: the sample model in its own process, jobs of
 * 2 documents × 1,000 lines at N lines per request, polled every 200 ms as the benchmark does:
 * `npx tsx --cpu-prof --cpu-prof-dir=/tmp/prof bench/support/profileEmulatorJob.ts [linesPerRequest] [jobs]`,
 * then `tsx bench/support/summarizeProfile.ts /tmp/prof/*.cpuprofile`.
 */
import { createLabelingClient } from '../../src/client/index.js';
import { startEmulator } from '../../src/emulator/index.js';
import { rawModelCaller, startModelProcess } from './rawModelCaller.js';

const perRequest = Number(process.argv[2] ?? 1);
const jobs = Number(process.argv[3] ?? 5);
const SECRET = 'profile-secret';
const WORDS = ['Ada Lovelace met', 'the team of Acme Corp in London on Monday', 'and wrote a note', 'about Grace Hopper', 'in March'];
const documents = Array.from({ length: 2 }, (_, d) => ({ id: `doc-${d}`, lines: Array.from({ length: 1_000 }, (_, i) => `${WORDS[i % WORDS.length]} (${d}/${i}).`) }));
const model = await startModelProcess(SECRET);
const emu = await startEmulator({ demoProject: false, model: { concurrency: 4 } });
emu.emulator.store.addProject({ id: 'p', name: 'p', documents, labelSets: [{ name: 'E', labels: ['PERSON', 'ORGANIZATION', 'LOCATION', 'DATE'].map((name) => ({ id: name, name })) }] });
const client = createLabelingClient({ url: emu.url, token: emu.token, poll: { intervalMs: 200, maxIntervalMs: 200 } });
for (let j = 0; j < jobs; j++) {
  const job = await client.startAutoLabel({ projectId: 'p', labelerEmail: 'p@example.com', options: { numberOfFilesPerRequest: perRequest }, targetAPI: { endpoint: model.url, secretKey: SECRET } });
  const outcome = await client.waitForJob(job.id, { timeoutMs: 600_000 });
  const raw = await rawModelCaller({ id: 'p', name: 'p', documents }, perRequest, model.url, SECRET, 4);
  console.log(`job ${outcome.outcome} in ${outcome.job ? Date.parse(outcome.job.updatedAt) - Date.parse(outcome.job.createdAt) : Number.NaN} ms; raw caller ${raw.ms.toFixed(0)} ms`);
}
client.close();
await emu.close();
await model.close();
