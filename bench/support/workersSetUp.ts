/**
 * What a run of CLI workers over `n` fresh demo projects needs (bench/manyWorkers.ts,
 * bench/support/profileWorkers.ts): an emulator serving them at `latencyMs` a call, the sample model,
 * and a folder with the projects file listing them.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoProjectId, startEmulator } from '../../src/emulator/index.js';
import { startModelServer } from '../../src/model/index.js';

export async function workersSetUp(n: number, latencyMs: number, secretKey: string, folderPrefix: string) {
  const emu = await startEmulator({ demoProject: false, demoProjects: n, latencyMs, model: { concurrency: 64, retries: 0 } });
  const model = await startModelServer({ secretKey });
  const dir = mkdtempSync(join(tmpdir(), folderPrefix));
  const projects = join(dir, 'projects.txt');
  writeFileSync(projects, Array.from({ length: n }, (_, i) => demoProjectId(i + 1)).join('\n') + '\n');
  const close = async () => {
    await model.close();
    await emu.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { emu, model, dir, projects, close };
}
