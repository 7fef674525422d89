// The flags that name what a command reads or runs on, for every command that takes them:
// projects (`--project`, `--projects FILE`), the copy (`--labeler`) and the label set (`--layer`).
import { readFile } from 'node:fs/promises';
import { CopyNotFoundError } from 'labelkit/labels';
import { errorCode } from '../shared/classify.js';
import { CliUsageError } from './usageError.js';
import type { UsageProblem } from './usageError.js';

/**
 * Parses a projects file: one project id per line; `#` starts a comment; blank lines are ignored.
 *
 * @param text - the file's content
 * @param file - its name, for problems
 * @param problems - receives one problem per bad line (with its number)
 * @returns the ids in order, each with its line's number
 * @remarks Duplicates are found by the caller, across the file and `--project` flags.
 * @example
 * ```ts
 * parseProjectsFile('# batch 1\np1\np2  # late\n', 'projects.txt', []); // [{ id: 'p1', line: 2 }, { id: 'p2', line: 3 }]
 * ```
 */
function parseProjectsFile(text: string, file: string, problems: UsageProblem[]): { id: string; line: number }[] {
  const out: { id: string; line: number }[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const line = raw.replace(/#.*$/, '').trim();
    if (line === '') continue;
    if (/\s/.test(line)) problems.push({ field: `--projects ${file}:${i + 1}`, message: 'one project id per line (ids have no spaces; # starts a comment)' });
    else out.push({ id: line, line: i + 1 });
  }
  return out;
}

/**
 * The projects of a command that takes many: `--project` (repeatable) and `--projects FILE`.
 *
 * @param flags - `project` (each `--project`) and `projects` (the file)
 * @param problems - receives every problem: an empty id, a bad line, a duplicate, an unreadable file, none at all
 * @returns the ids, each once, in order (the flags' first, then the file's)
 */
export async function projectIds(flags: { project?: string[] | undefined; projects?: string | undefined }, problems: UsageProblem[]): Promise<string[]> {
  // Where each id was given: `--project #n` (flag n, from 1) or the file's line n (as -n), worded only for a problem.
  const listed: { id: string; at: number }[] = (flags.project ?? []).map((id, i) => ({ id: id.trim(), at: i + 1 }));
  const where = (at: number) => (at > 0 ? `--project #${at}` : `${flags.projects}:${-at}`);
  for (const p of listed) if (p.id === '') problems.push({ field: where(p.at), message: 'must not be empty' });
  if (flags.projects !== undefined) {
    try {
      // A loop, not push(...lines): a spread of 150,000 ids overflows the stack.
      for (const p of parseProjectsFile(await readFile(flags.projects, 'utf8'), flags.projects, problems)) listed.push({ id: p.id, at: -p.line });
    } catch (error) {
      problems.push({ field: '--projects', message: `cannot read the file ${flags.projects} (${errorCode(error) ?? 'unreadable'})` });
    }
  }
  const seen = new Map<string, number>();
  for (const p of listed) {
    if (p.id === '') continue;
    const first = seen.get(p.id);
    if (first !== undefined) problems.push({ field: where(p.at), message: `project ${p.id} is listed twice (also ${where(first)})` });
    else seen.set(p.id, p.at);
  }
  if (listed.length === 0 && flags.projects !== undefined && problems.length === 0) problems.push({ field: '--projects', message: `${flags.projects} lists no project` });
  else if (listed.length === 0 && flags.projects === undefined) problems.push({ field: '--project', message: 'required: --project ID (repeatable) or --projects FILE' });
  return [...seen.keys()];
}

/**
 * Checks `--labeler`, the e-mail whose copy a command reads (the reviewer's when absent).
 *
 * @param labeler - the flag
 * @param problems - receives a problem when it is blank
 * @returns the e-mail, trimmed, or undefined for the reviewer's copy
 */
export function labelerFlag(labeler: string | undefined, problems: UsageProblem[]): string | undefined {
  if (labeler === undefined) return undefined;
  if (labeler.trim() === '') problems.push({ field: '--labeler', message: 'must be an e-mail' });
  return labeler.trim();
}

/**
 * Checks `--layer`, a label set's index.
 *
 * @param layer - the flag
 * @param problems - receives a problem unless it is a whole number from 0
 * @returns the index, or undefined when the flag is absent
 */
export function layerFlag(layer: string | undefined, problems: UsageProblem[]): number | undefined {
  if (layer === undefined) return undefined;
  if (!/^\d+$/.test(layer.trim())) problems.push({ field: '--layer', message: 'must be a label set index, a whole number from 0' });
  return Number(layer);
}

/**
 * Turns "no such copy" into a usage problem of `--labeler` (or of `--project` when the project has
 * no reviewer copy), listing the labelers the service knows.
 *
 * @param error - what reading a copy threw
 * @returns a usage error, or the error unchanged
 */
export function copyProblem(error: unknown): unknown {
  if (!(error instanceof CopyNotFoundError)) return error;
  const known = error.labelerEmails.length > 0 ? ` (labelers of this project: ${error.labelerEmails.join(', ')})` : '';
  return new CliUsageError([{ field: error.reason === 'no-reviewer-copy' ? '--project' : '--labeler', message: `${error.message}${known}` }]);
}
