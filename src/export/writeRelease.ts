import { createHash } from 'node:crypto';
import { access, constants, mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { LabelingClient } from 'labelkit';
import { errorCode } from '../shared/classify.js';
import { openExclusive } from '../shared/fileWrites.js';
import { isRecord } from '../shared/isRecord.js';
import { datasetCard } from './card.js';
import { ExportError, ExportInterrupted } from './errors.js';
import { exportDocuments, planExport } from './exportDocuments.js';
import type { ExportReadOptions } from './exportDocuments.js';
import { documentStatus } from './filters.js';
import type { DocumentStatus } from './filters.js';
import { formatDocument, tagList } from './formats.js';
import { createReleaseBuilder, deltaMismatches, keyOf, RELEASE_FILES, splitFileName } from './manifest.js';
import type { ReleaseManifest, ReleaseOptions } from './manifest.js';
import { splitOf } from './splits.js';
import type { SplitShare } from './splits.js';
import { createStratifier } from './stratify.js';
import { EXPORT_FORMATS } from './types.js';
import type { ExportFormat } from './types.js';
import { publishFolder, writeNewFile } from './releaseFolder.js';
import { lockOutput } from './writeExport.js';

/** Options of {@link writeRelease}. */
export interface WriteReleaseOptions extends Omit<ExportReadOptions, 'format' | 'keep'> {
  format: ExportFormat;
  /** The release folder: written as `<out>.partial/`, renamed into place at the end; must not exist, or be empty. */
  out: string;
  splits: SplitShare[];
  seed: string;
  /** Deal documents to the splits by label ({@link createStratifier}) instead of by hash alone. @defaultValue false */
  stratify?: boolean | undefined;
  /** Keep only documents of these statuses (`TextDocument.isCompleted` of the copy). @defaultValue all */
  status?: readonly DocumentStatus[] | undefined;
  /** Keep only these document ids (`--documents FILE`). @defaultValue all */
  documents?: readonly string[] | undefined;
  /** Keep only these label names; the others are dropped and counted. @defaultValue all */
  labels?: readonly string[] | undefined;
  /** A delta: the last release's `manifest.json`; only what was added, changed or removed is written. */
  since?: string | undefined;
  /** The release's day, `YYYY-MM-DD`. @defaultValue today (UTC) */
  created?: string | undefined;
}

/**
 * Why a release folder cannot be written at `out`: its parent missing or not writable, or `out`
 * a file or a folder with something in it.
 *
 * @param out - the folder
 * @returns the problem, naming the path, or undefined
 */
export async function releaseOutputProblem(out: string): Promise<string | undefined> {
  const dir = dirname(resolve(out));
  const parent = await stat(dir).catch((error: unknown) => errorCode(error) ?? 'unreadable');
  if (typeof parent === 'string' || !parent.isDirectory()) return `cannot write ${out}: its folder ${dir} ${parent === 'ENOENT' ? 'does not exist' : 'is not a folder'}`;
  if (!(await access(dir, constants.W_OK).then(() => true, () => false))) return `cannot write ${out}: its folder ${dir} is not writable`;
  const there = await stat(out).catch(() => undefined);
  if (there && !there.isDirectory()) return `${out} is a file: a release is a folder`;
  if (there && (await readdir(out)).length > 0) return `${out} is not empty: a release is never written over, give a new folder`;
  return undefined;
}

/** Reads a manifest.json and checks its shape; its SHA-256 is what a delta names. */
export async function readManifest(path: string, field: string): Promise<{ manifest: ReleaseManifest; sha256: string }> {
  const file = (await stat(path).catch(() => undefined))?.isDirectory() ? join(path, RELEASE_FILES.manifest) : path;
  const text = await readFile(file, 'utf8').catch((error: unknown) => {
    throw new ExportError('RELEASE', field, `cannot read ${file} (${errorCode(error) ?? String(error)})`);
  });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ExportError('RELEASE', field, `${file} is not JSON: not a release's manifest.json`);
  }
  const ok = isRecord(value) && value['manifest'] === 1 && Array.isArray(value['documents']) && Array.isArray(value['files']) && isRecord(value['options']) && Array.isArray(value['tags']);
  if (!ok) throw new ExportError('RELEASE', field, `${file} is not a release's manifest.json (version 1)`);
  return { manifest: value as unknown as ReleaseManifest, sha256: createHash('sha256').update(text).digest('hex') };
}

/** A manifest as written: its fields, then one document per line (diffs of two releases stay readable). */
export function manifestText(manifest: ReleaseManifest): string {
  const { documents, ...rest } = manifest;
  const head = JSON.stringify(rest, null, 2);
  return `${head.slice(0, -2)},\n  "documents": [\n${documents.map((d) => `    ${JSON.stringify(d)}`).join(',\n')}\n  ]\n}\n`;
}

/** Today, `YYYY-MM-DD` (UTC). */
export const today = (): string => new Date().toISOString().slice(0, 10);

/**
 * Writes a dataset release of one copy of some projects: a file per split, `manifest.json`, a
 * dataset card (`README.md`) and, for jsonl, the tag list; or, `since` an earlier release, the
 * delta (added and changed documents per split, the removed ids, the new release's manifest).
 *
 * @param client - the client
 * @param projectIds - the projects, in the files' order
 * @param options - format, folder, splits, seed, stratify, filters, since, and the export's read options
 * @returns the manifest written
 * @throws {@link ExportError} before anything is written: an output that cannot be written
 * (`OUT`), another run writing it (`LOCKED`), a `since` of other options or not a manifest, a
 * label of `labels` that is in no label set (`RELEASE`); as `writeExport` otherwise
 * @remarks Streamed: each document is formatted and appended to its split's file as it is read
 * (the manifest keeps a few fields per document). The folder is written as `<out>.partial/`
 * under the lock `<out>.lock` and renamed into place when complete; a run killed at any point
 * leaves `out` untouched, and the same command run again starts the release over (the files do
 * not depend on the run: same project, same options, same bytes).
 */
export async function writeRelease(client: LabelingClient, projectIds: readonly string[], options: WriteReleaseOptions): Promise<ReleaseManifest> {
  const { format, splits, seed, stratify = false, status, documents: ids, labels: keepNames, since: sincePath, created = today(), ...read } = options;
  if (!EXPORT_FORMATS.includes(format)) throw new ExportError('FORMAT', '--format', `must be ${EXPORT_FORMATS.join(', ')}`);
  const out = resolve(options.out);
  const unwritable = await releaseOutputProblem(out);
  if (unwritable) throw new ExportError('OUT', '--out', unwritable);
  const since = sincePath === undefined ? undefined : await readManifest(sincePath, '--since');
  const plan = await planExport(client, projectIds, { ...read, format });

  const dropped = { status: 0, notListed: 0 };
  const listed = ids && new Set(ids);
  const all = new Set(plan.documents.map((d) => d.documentId));
  const unknownIds = ids ? ids.filter((id) => !all.has(id)).length : 0;
  plan.documents = plan.documents.filter((d) => {
    if (status && !status.includes(documentStatus(d.completed))) return void dropped.status++;
    if (listed && !listed.has(d.documentId)) return void dropped.notListed++;
    return true;
  });
  if (keepNames) {
    const unknown = keepNames.filter((n) => !plan.labels.includes(n));
    if (unknown.length > 0) throw new ExportError('RELEASE', '--labels', `${unknown.map((n) => `"${n}"`).join(', ')} ${unknown.length === 1 ? 'is' : 'are'} in no label set of the release (its labels: ${plan.labels.join(', ')})`);
    plan.labels = plan.labels.filter((n) => keepNames.includes(n));
    plan.tags = tagList(plan.labels);
  }
  const releaseOptions: ReleaseOptions = { format, projects: [...projectIds], copy: plan.copy, layer: plan.layer, strict: read.strict === true, splits, seed, stratify, status: status ? [...status] : null, labels: keepNames ? [...plan.labels] : null, documents: ids ? ids.length : null };
  const labels = plan.labels.map((name) => ({ name, ids: Object.fromEntries(plan.projects.flatMap((p) => [...p.names].filter(([, n]) => n === name).map(([id]) => [p.projectId, id]))) }));
  if (since) {
    const mismatches = deltaMismatches(since.manifest, { options: releaseOptions, tags: plan.tags });
    if (mismatches.length > 0) throw new ExportError('RELEASE', '--since', `${sincePath} is a release of other options (${mismatches.join('; ')}): export in full instead`);
  }

  const tagIndex = new Map(plan.tags.map((t, i) => [t, i]));
  const builder = createReleaseBuilder({ options: releaseOptions, tags: plan.tags, labels, created, format: (doc) => formatDocument(format, doc, tagIndex), since, dropped: { documents: dropped, unknownIds } });
  const inRelease = new Set(plan.documents.map((d) => keyOf({ project: plan.projects[d.project]!.projectId, id: d.documentId })));
  const assigned = new Map((since?.manifest.documents ?? []).filter((d) => inRelease.has(keyOf(d))).map((d) => [d.id, d.split]));
  const deal = stratify ? createStratifier({ splits, seed, total: plan.documents.length, assigned }) : undefined;

  const lock = await lockOutput(out);
  const partial = `${out}.partial`;
  const handles = new Map<string, FileHandle>();
  try {
    await rm(partial, { recursive: true, force: true });
    await mkdir(partial);
    for (const { name } of splits) handles.set(name, await openExclusive(join(partial, splitFileName(name, format, since !== undefined))));
    const keep = keepNames ? new Set(plan.labels) : undefined;
    for await (const doc of exportDocuments(client, plan, { ...read, ...(keep && { keep }) })) {
      const split = deal ? deal.assign(doc.documentId, doc.lines.flatMap((l) => l.spans.map((s) => s.label))) : splitOf(doc.documentId, seed, splits);
      const placed = builder.add(doc, split, doc.dropped);
      if (!since || placed.delta) await handles.get(split)!.write(placed.bytes);
    }
    const manifest = builder.finish();
    for (const handle of handles.values()) await handle.datasync();
    const write = (name: string, text: string) => writeNewFile(join(partial, name), text);
    await write(RELEASE_FILES.manifest, manifestText(manifest));
    if (format === 'jsonl') await write(RELEASE_FILES.tags, JSON.stringify(plan.tags) + '\n');
    if (manifest.delta) await write(RELEASE_FILES.removed, JSON.stringify(manifest.delta.removed) + '\n');
    else await write(RELEASE_FILES.card, datasetCard(manifest));
    await Promise.all([...handles.values()].map((h) => h.close()));
    handles.clear();
    await publishFolder(partial, out);
    return manifest;
  } catch (error) {
    await Promise.all([...handles.values()].map((h) => h.close().catch(() => undefined)));
    await rm(partial, { recursive: true, force: true }).catch(() => undefined);
    // A release starts over when run again (nothing of it is in `out` yet): Ctrl-C says so.
    throw read.signal?.aborted === true ? new ExportInterrupted(null, plan.documents.length) : error;
  } finally {
    await lock.release();
  }
}
