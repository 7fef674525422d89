import { stringify } from 'yaml';
import { markdownText } from '../shared/escape.js';
import { LEFT_OUT_REASONS } from './types.js';
import type { ReleaseManifest } from './manifest.js';

/** The columns each format's rows have, as the card's `dataset_info.features` lists them. */
function features(manifest: Pick<ReleaseManifest, 'options' | 'tags'>): unknown[] {
  const where = [
    { name: 'project', dtype: 'string' },
    { name: 'document', dtype: 'string' },
    { name: 'line', dtype: 'int64' },
  ];
  if (manifest.options.format === 'jsonl') {
    const names = Object.fromEntries(manifest.tags.map((t, i) => [String(i), t]));
    return [{ name: 'id', dtype: 'string' }, ...where, { name: 'tokens', sequence: 'string' }, { name: 'ner_tags', sequence: { class_label: { names } } }];
  }
  return [];
}

const n = (x: number) => x.toLocaleString('en');

/**
 * A release's dataset card (`DIR/README.md`), in the Hugging Face dataset-card layout: a YAML
 * header (`configs` with each split's data file, `dataset_info` with the features and splits),
 * then what the release holds.
 *
 * @param manifest - the release's manifest
 * @returns the card's text
 * @remarks The header's `configs[0].data_files` names each split's file, so `load_dataset` of the
 * folder reads exactly those (and not `manifest.json` or `labels.json` beside them); for `jsonl`,
 * `ner_tags` is a sequence of `class_label` whose names are the tag list. `conll` has no features,
 * nor `spacy` (its `entities` mix numbers and names, which no Arrow type holds): the card lists
 * their files. The body: per split the
 * documents, lines, tokens, spans per label and documents per label; what was left out or dropped
 * and why; the label set with its class ids and label item ids; the project, the copy, the date,
 * the options and the SHA-256 of each file.
 * @example
 * ```ts
 * await writeFile('release/README.md', datasetCard(manifest));
 * ```
 */
export function datasetCard(manifest: Omit<ReleaseManifest, 'documents'>): string {
  const { options, files } = manifest;
  const header: Record<string, unknown> = {
    pretty_name: `${options.projects.join(', ')} (${options.copy === 'reviewer' ? 'reviewer copy' : 'labeler copy'}, label set ${options.layer})`,
    task_categories: ['token-classification'],
    task_ids: ['named-entity-recognition'],
    configs: [{ config_name: 'default', data_files: files.map((f) => ({ split: f.split, path: f.path })) }],
  };
  if (options.format === 'jsonl') {
    header['dataset_info'] = {
      features: features(manifest),
      splits: files.map((f) => ({ name: f.split, num_bytes: f.bytes, num_examples: f.lines })),
      dataset_size: files.reduce((sum, f) => sum + f.bytes, 0),
    };
  }
  const labels = manifest.labels.map((l) => l.name);
  const lines: string[] = ['---', stringify(header, { lineWidth: 0 }).trimEnd(), '---', ''];
  lines.push(`# ${options.projects.join(', ')}: labels as training data`, '');
  lines.push(
    `Exported by \`labelkit export\` on ${manifest.created} from ${options.projects.length === 1 ? 'project' : 'projects'} ${options.projects.map((p) => `\`${p}\``).join(', ')}, ` +
      `${options.copy === 'reviewer' ? 'the reviewer copy' : `the copy of labeler \`${options.copy}\``}, label set ${options.layer}, as \`${options.format}\`. ` +
      `Splits ${options.splits.map((s) => `${s.name} ${s.share}`).join(', ')} with seed \`${options.seed}\`${options.stratify ? ', stratified by label' : ''}.`,
    '',
  );
  lines.push('## Splits', '', '| split | file | documents | lines | tokens | bytes | sha256 |', '|---|---|---|---|---|---|---|');
  for (const f of files) lines.push(`| ${f.split} | ${f.path} | ${n(f.documents)} | ${n(f.lines)} | ${n(f.tokens)} | ${n(f.bytes)} | \`${f.sha256}\` |`);
  lines.push('', '## Spans per label', '', `| label | ${files.map((f) => `${f.split} spans | ${f.split} documents`).join(' | ')} |`, `|---|${files.map(() => '---|---').join('|')}|`);
  for (const l of labels) lines.push(`| ${markdownText(l)} | ${files.map((f) => `${n(f.spans[l] ?? 0)} | ${n(f.documentsWith[l] ?? 0)}`).join(' | ')} |`);
  lines.push('', '## Left out, and why', '');
  const left: string[] = [];
  for (const reason of LEFT_OUT_REASONS) if (manifest.leftOut.labels[reason] > 0) left.push(`- ${n(manifest.leftOut.labels[reason])} label(s): ${reason}${reason === 'snapped' ? ' (kept, widened to whole tokens)' : ''}`);
  if (manifest.leftOut.lines.hidden + manifest.leftOut.lines.deleted > 0) left.push(`- lines: ${n(manifest.leftOut.lines.hidden)} hidden, ${n(manifest.leftOut.lines.deleted)} deleted`);
  for (const [name, count] of Object.entries(manifest.dropped.labels)) left.push(`- ${n(count)} ${markdownText(name)} label(s): not in --labels`);
  if (manifest.dropped.documents.status > 0) left.push(`- ${n(manifest.dropped.documents.status)} document(s): status not ${(options.status ?? []).join(' or ')}`);
  if (manifest.dropped.documents.notListed > 0) left.push(`- ${n(manifest.dropped.documents.notListed)} document(s): not in --documents`);
  if (manifest.dropped.unknownIds > 0) left.push(`- ${n(manifest.dropped.unknownIds)} id(s) of --documents: in no project of the release`);
  lines.push(...(left.length > 0 ? left : ['Nothing.']), '');
  lines.push('## Label set', '', `| label | tags (class ids) | label item id |`, '|---|---|---|');
  for (const l of manifest.labels) {
    const b = manifest.tags.indexOf(`B-${l.name}`);
    const ids = Object.entries(l.ids).map(([project, id]) => (options.projects.length > 1 ? `${markdownText(project)}: ${markdownText(id)}` : markdownText(id)));
    lines.push(`| ${markdownText(l.name)} | B ${b}, I ${b + 1} | ${ids.join(', ')} |`);
  }
  lines.push('', 'Tag 0 is `O`.' + (manifest.tagsFile ? ` The tag list is also in \`${manifest.tagsFile}\`.` : ''), '');
  lines.push('## Files', '', `\`manifest.json\` holds each document's split and content hash, the options and these SHA-256s.`, '');
  return lines.join('\n');
}
