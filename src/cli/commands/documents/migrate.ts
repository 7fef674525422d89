import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { renameEdits } from '../../../shared/schemaGeneration.js';
import type { RenameEdit } from '../../../shared/schemaGeneration.js';
import type { CommonFlags } from '../../runAction.js';
import { CliUsageError } from '../../usageError.js';
import { readDocuments } from '../../checks/documents.js';
import { codegenConfigFile, SCHEMA_FILES } from '../../checks/documentSources.js';
import type { DocumentGlobs } from '../../checks/documentSources.js';

/** Flags of `labelkit documents migrate`. */
export interface DocumentsMigrateFlags extends CommonFlags {
  to?: string;
  check?: boolean;
  dir?: string;
}

/** One changed line of one file. */
export interface ChangedLine {
  line: number;
  before: string;
  after: string;
}

/** What `labelkit documents migrate` rewrote (or, with `--check`, would rewrite). */
export interface DocumentsMigrateResult {
  to: 'both' | 'labels';
  globs: DocumentGlobs;
  /** Whether the files were written (false with `--check`, or when nothing was due). */
  written: boolean;
  /** Files of documents read (the codegen configuration, whose schema the rewrite points at labelkit's SDL of that generation, is not counted). */
  files: number;
  /** The files a rewrite changes, each with its changed lines. */
  changed: { file: string; lines: ChangedLine[] }[];
}

/**
 * Rewrites the app's documents across the rename, splicing only the renamed fields.
 *
 * @param globs - the glob arguments (none: the codegen configuration's `documents`, else `**\/*.graphql`)
 * @param flags - `--to both|labels`, `--check` (write nothing), `--dir`
 * @returns every changed line, before and after
 * @throws {@link CliUsageError} (exit 2) for a missing or unknown `--to`, and as `documents check`
 * reads the files: none matches, one cannot be read or is not GraphQL (nothing is written then)
 * @remarks The edits are {@link renameEdits} of each operation, at the offsets graphql's parser
 * gives: every other character of a file (comments, blank lines, indentation, the code around a
 * template) stays as it was, and no line is added or removed. A file is written whole, once.
 * The app's codegen configuration follows: its `labelkit/schema.graphql` becomes
 * `labelkit/schema.labels.graphql` for `--to labels` (and back for `--to both`), so that the next
 * `npx graphql-codegen` generates against the schema the documents are written for.
 * @example
 * ```ts
 * const result = await runDocumentsMigrate([], { to: 'both', dir: 'app' });
 * ```
 */
export async function runDocumentsMigrate(globs: readonly string[], flags: DocumentsMigrateFlags): Promise<DocumentsMigrateResult> {
  const to = flags.to;
  if (to !== 'both' && to !== 'labels') {
    throw new CliUsageError([{ field: '--to', message: to === undefined ? "required: 'both' (before the rename) or 'labels' (after it)" : "must be 'both' or 'labels'" }], 'see labelkit documents migrate --help');
  }
  const { parsed, found, dir } = await readDocuments(globs, flags.dir);
  const byFile = new Map<string, { text: string; edits: RenameEdit[] }>();
  for (const p of parsed) {
    const entry = byFile.get(p.text.file) ?? { text: p.fileText, edits: [] };
    entry.edits.push(...renameEdits(p.document, to).map((e) => ({ start: e.start + p.text.start, end: e.end + p.text.start, text: e.text })));
    byFile.set(p.text.file, entry);
  }
  // The codegen configuration's schema follows: labelkit/schema.labels.graphql after the rename.
  const files = byFile.size;
  const config = codegenConfigFile(dir);
  if (config !== undefined && !byFile.has(config)) {
    const text = readFileSync(resolve(dir, config), 'utf8');
    const from = to === 'labels' ? SCHEMA_FILES.both : SCHEMA_FILES.labels;
    const edits = [...text.matchAll(new RegExp(`${from.replace(/[.]/g, '\\.')}(?=['"])`, 'g'))].map((m) => ({ start: m.index, end: m.index + from.length, text: SCHEMA_FILES[to] }));
    byFile.set(config, { text, edits });
  }
  const changed: DocumentsMigrateResult['changed'] = [];
  const rewrites: { file: string; text: string }[] = [];
  for (const [file, { text, edits }] of byFile) {
    if (edits.length === 0) continue;
    edits.sort((a, b) => a.start - b.start);
    let after = '';
    let at = 0;
    for (const edit of edits) {
      after += text.slice(at, edit.start) + edit.text;
      at = edit.end;
    }
    after += text.slice(at);
    // The edits never touch a line break: line n before is line n after.
    const beforeLines = text.split('\n');
    const afterLines = after.split('\n');
    const lines = beforeLines.flatMap((line, i) => (line === afterLines[i] ? [] : [{ line: i + 1, before: line, after: afterLines[i]! }]));
    changed.push({ file, lines });
    rewrites.push({ file, text: after });
  }
  const write = flags.check !== true && rewrites.length > 0;
  if (write) for (const r of rewrites) writeFileSync(resolve(dir, r.file), r.text);
  return { to, globs: found, written: write, files, changed };
}
