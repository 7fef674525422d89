import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { datasetCard } from './card.js';
import { ExportError } from './errors.js';
import { deltaSlices, RELEASE_FILES } from './manifest.js';
import type { ReleaseManifest } from './manifest.js';
import { publishFolder, writeNewFile } from './releaseFolder.js';
import { lockOutput } from './writeExport.js';
import { manifestText, readManifest, releaseOutputProblem } from './writeRelease.js';

/** The SHA-256 and size of a file, streamed; undefined when it cannot be read. */
async function fileSha256(path: string): Promise<string | undefined> {
  const hash = createHash('sha256');
  try {
    for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  } catch {
    return undefined;
  }
  return hash.digest('hex');
}

/**
 * Rebuilds the full release from the last one and a delta written with `--since`:
 * `labelkit export apply-delta OLD DELTA --out NEW`.
 *
 * @param oldDir - the last release's folder
 * @param deltaDir - the delta's folder
 * @param outDir - the new release's folder (must not exist, or be empty)
 * @returns the new release's manifest (the delta's, without its delta section)
 * @throws {@link ExportError} before anything is written: `OUT` for an output that cannot be
 * written, `RELEASE` for a delta not made from this release (the SHA-256 of OLD's manifest),
 * a file of either folder whose SHA-256 is not its manifest's; after the copy, when a rebuilt
 * file's SHA-256 is not the one the delta promises (the new folder is then not written)
 * @remarks Every piece is proven: OLD's and DELTA's files are checked against their manifests
 * before use, each document is copied (streamed, in ranges) from OLD's file when unchanged or
 * from DELTA's when added or changed, and each rebuilt file must have the SHA-256 the delta's
 * manifest holds: the bytes of a fresh full export. The card and tag list are written from the
 * manifest; the folder is written beside NEW and renamed into place, under NEW's lock.
 */
export async function applyDelta(oldDir: string, deltaDir: string, outDir: string): Promise<ReleaseManifest> {
  const out = resolve(outDir);
  const problem = await releaseOutputProblem(out);
  if (problem) throw new ExportError('OUT', '--out', problem);
  const old = await readManifest(oldDir, 'OLD');
  const delta = await readManifest(deltaDir, 'DELTA');
  if (!delta.manifest.delta) throw new ExportError('RELEASE', 'DELTA', `${deltaDir} is a full release, not a delta (export with --since OLD/manifest.json)`);
  if (delta.manifest.delta.since !== old.sha256) throw new ExportError('RELEASE', 'DELTA', `${deltaDir} is a delta of another release than ${oldDir} (its manifest names another manifest.json)`);
  for (const [field, dir, files] of [['OLD', oldDir, old.manifest.files], ['DELTA', deltaDir, delta.manifest.delta.files]] as const) {
    const wrong: string[] = [];
    for (const f of files) if ((await fileSha256(join(dir, f.path))) !== f.sha256) wrong.push(join(dir, f.path));
    if (wrong.length > 0) throw new ExportError('RELEASE', field, `${wrong.join(', ')}: missing, or not the file its manifest names (SHA-256 differs)`);
  }
  let slices: ReturnType<typeof deltaSlices>;
  try {
    slices = deltaSlices(old.manifest, delta.manifest);
  } catch (error) {
    throw new ExportError('RELEASE', 'DELTA', (error as Error).message);
  }
  const { delta: _delta, ...manifest } = delta.manifest;
  const lock = await lockOutput(out);
  const partial = `${out}.partial`;
  try {
    await rm(partial, { recursive: true, force: true });
    await mkdir(partial);
    for (const file of manifest.files) {
      const handle = await open(join(partial, file.path), 'wx');
      const hash = createHash('sha256');
      try {
        for (const slice of slices.get(file.path) ?? []) {
          const from = join(slice.from === 'old' ? oldDir : deltaDir, slice.path);
          for await (const chunk of createReadStream(from, { start: slice.offset, end: slice.offset + slice.bytes - 1 })) {
            hash.update(chunk as Buffer);
            await handle.write(chunk as Buffer);
          }
        }
        await handle.datasync();
      } finally {
        await handle.close();
      }
      const sha256 = hash.digest('hex');
      if (sha256 !== file.sha256) throw new ExportError('RELEASE', 'DELTA', `the rebuilt ${file.path} has SHA-256 ${sha256}, not the ${file.sha256} the delta's manifest holds: nothing written`);
    }
    const writeInPartial = (name: string, text: string) => writeNewFile(join(partial, name), text);
    await writeInPartial(RELEASE_FILES.manifest, manifestText(manifest));
    if (manifest.tagsFile) await writeInPartial(manifest.tagsFile, JSON.stringify(manifest.tags) + '\n');
    await writeInPartial(RELEASE_FILES.card, datasetCard(manifest));
    await publishFolder(partial, out);
    return manifest;
  } catch (error) {
    await rm(partial, { recursive: true, force: true }).catch(() => undefined);
    throw error;
  } finally {
    await lock.release();
  }
}
