import { createLabelingClient } from 'labelkit';
import { applyDelta, ExportError, parseSplits, readManifest, releaseOutputProblem, today, writeRelease } from '../../../export/index.js';
import type { ReleaseManifest, ReleaseSummary, SplitShare } from '../../../export/index.js';
import { clientAuth, requireConnection } from '../../connection.js';
import type { ActionContext } from '../../runAction.js';
import { CliUsageError } from '../../usageError.js';
import type { UsageProblem } from '../../usageError.js';
import { checkCopyFlags, checkFilterFlags, exportProblem, serviceIdentity } from './runner.js';
import type { ExportFlags } from './runner.js';

/** The flags that make `labelkit export` write a release (a folder) instead of one file (the filters are the export's: {@link ExportFlags}). */
export interface ReleaseFlags {
  split?: string;
  seed?: string;
  stratify?: boolean;
  since?: string;
}

const RELEASE_FLAGS = ['split', 'seed', 'stratify', 'since'] as const;

/** What a release run wrote: its manifest, and where it went on from when an interrupted run had begun it. */
export interface ReleaseRun {
  /** The manifest written but its documents (manifest.json lists them). */
  manifest: ReleaseSummary;
  /** Documents already written by an interrupted run this one went on from; null when it started afresh. */
  resumedAt: number | null;
}

/**
 * Whether the flags ask for a release.
 *
 * @param flags - the flags of `labelkit export`
 * @returns true when any of `--split`, `--seed`, `--stratify`, `--since` is given (the filters
 * `--status`, `--documents`, `--labels` filter a single export as well)
 */
export function wantsRelease(flags: ReleaseFlags): boolean {
  return RELEASE_FLAGS.some((f) => flags[f] !== undefined);
}

/** The release's day: `SOURCE_DATE_EPOCH` (seconds, the reproducible-builds convention) when set, else today (UTC). */
function releaseDay(env: Record<string, string | undefined>, problems: UsageProblem[]): string {
  const epoch = env['SOURCE_DATE_EPOCH'];
  if (epoch === undefined || epoch === '') return today();
  if (!/^\d{1,12}$/.test(epoch)) {
    problems.push({ field: 'SOURCE_DATE_EPOCH', message: 'must be whole seconds since 1970 (the reproducible-builds convention)' });
    return today();
  }
  return new Date(Number(epoch) * 1000).toISOString().slice(0, 10);
}

/**
 * Checks every flag of a release, then writes it: `labelkit export … --split … --seed S --out DIR`.
 *
 * @param flags - the export's flags and the release's
 * @param context - the run's io, printer and Ctrl-C signal
 * @param onProgress - called after each document
 * @returns the manifest written, and where it went on from (a release interrupted, by Ctrl-C or a
 * kill, goes on from its checkpoint when run again with the same flags)
 * @throws {@link CliUsageError} listing every problem with the flags at once, before anything is
 * sent; the export's problems as `labelkit export` reports them
 */
export async function runRelease(flags: ExportFlags & ReleaseFlags, context: ActionContext, onProgress?: (done: number, total: number) => void): Promise<ReleaseRun> {
  const problems: UsageProblem[] = [];
  const { projects, format, layer } = await checkCopyFlags(flags, problems);
  let splits: SplitShare[] = [];
  if (flags.split === undefined) problems.push({ field: '--split', message: 'required for a release (e.g. --split train=0.8,dev=0.1,test=0.1; one split: --split all=1)' });
  else {
    const parsed = parseSplits(flags.split);
    splits = parsed.splits;
    problems.push(...parsed.problems.map((p) => ({ field: p.path, message: p.message })));
  }
  if (flags.seed === undefined || flags.seed.trim() === '') problems.push({ field: '--seed', message: 'required for a release: any text; the same seed gives the same splits' });
  const { status, labels, documents } = await checkFilterFlags(flags, problems);
  if (flags.since !== undefined) await readManifest(flags.since, '--since').catch((error: unknown) => problems.push({ field: '--since', message: (error as Error).message }));
  if (flags.out === undefined || flags.out.trim() === '') problems.push({ field: '--out', message: flags.out === undefined ? 'required: the release folder to write' : 'must not be empty' });
  else {
    const problem = await releaseOutputProblem(flags.out);
    if (problem) problems.push({ field: '--out', message: problem });
  }
  const created = releaseDay(context.io.env, problems);
  const connection = await requireConnection(flags, context.io, context.printer, problems);
  const client = createLabelingClient({ url: connection.url, ...clientAuth(connection), retry: connection.retry });
  let resumedAt: number | null = null;
  try {
    const manifest = await writeRelease(client, projects, {
      format: format!,
      out: flags.out!,
      layer,
      strict: flags.strict === true,
      splits,
      seed: flags.seed!.trim(),
      stratify: flags.stratify === true,
      created,
      signal: context.signal,
      // Another service, another release: compared on resume.
      identity: serviceIdentity(connection.url),
      onResume: (documents) => (resumedAt = documents),
      ...(status && { status }),
      ...(labels && { labels }),
      ...(documents && { documents }),
      ...(flags.since !== undefined && { since: flags.since }),
      ...(flags.labeler !== undefined && { labelerEmail: flags.labeler.trim() }),
      ...(onProgress && { onProgress }),
    });
    return { manifest, resumedAt };
  } catch (error) {
    throw exportProblem(error);
  } finally {
    client.close();
  }
}

/**
 * `labelkit export apply-delta OLD DELTA --out NEW`: the full release from the last one and a delta.
 *
 * @param oldDir - the last release's folder
 * @param deltaDir - the delta's folder (written with `--since OLD/manifest.json`)
 * @param flags - `--out`
 * @returns the new release's manifest
 * @throws {@link CliUsageError} for a missing or unwritable `--out`, a delta of another release or
 * of other options, or a file that is not the one its manifest names
 */
export async function runApplyDelta(oldDir: string, deltaDir: string, flags: { out?: string }): Promise<ReleaseManifest> {
  if (flags.out === undefined || flags.out.trim() === '') throw new CliUsageError([{ field: '--out', message: 'required: the new release folder to write' }]);
  try {
    return await applyDelta(oldDir, deltaDir, flags.out);
  } catch (error) {
    if (error instanceof ExportError) throw new CliUsageError([{ field: error.field, message: error.message }]);
    throw error;
  }
}
