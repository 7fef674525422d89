import { ExportError } from './errors.js';
import type { ExportedDocument, ExportFormat } from './types.js';

/** The line CoNLL-2003 files put before each document (its four columns: token, POS, chunk, NER). */
export const CONLL_DOCSTART = '-DOCSTART- -X- -X- O';

/**
 * The IOB2 tag list of an export: `O`, then `B-` and `I-` of each label, in the given order.
 *
 * @param labels - the labels' names, each once
 * @returns the tags; a tag's position is its index in `ner_tags` (jsonl)
 * @example
 * ```ts
 * tagList(['PERSON', 'DATE']); // ['O', 'B-PERSON', 'I-PERSON', 'B-DATE', 'I-DATE']
 * ```
 */
export function tagList(labels: readonly string[]): string[] {
  return ['O', ...labels.flatMap((l) => [`B-${l}`, `I-${l}`])];
}

/**
 * What stops a format from holding a label name or token, or undefined.
 *
 * @param format - the format
 * @param text - a label's name or a token
 * @returns why it cannot be written (conll: white space or an empty text would split or shift its columns)
 */
export function unwritable(format: ExportFormat, text: string): string | undefined {
  if (format !== 'conll') return undefined;
  if (text === '') return 'is empty, which CoNLL columns cannot hold';
  return /\s/.test(text) ? 'holds white space, which splits CoNLL columns' : undefined;
}

/**
 * One document in a format, as it is written to the file.
 *
 * @param format - `conll`, `jsonl` or `spacy`
 * @param doc - the document
 * @param tagIndex - tag → its index in the tag list (jsonl's `ner_tags`)
 * @returns the document's text, ending with a newline
 * @throws {@link ExportError} (`FORMAT`) naming a token that `conll` cannot hold (white space)
 * @remarks
 * - `conll`: `-DOCSTART- -X- -X- O` and a blank line, then per line of text one token per line
 *   (`TOKEN -X- -X- TAG`, the four columns of CoNLL-2003, POS and chunk unknown) and a blank line;
 *   a line without tokens is not written (CoNLL has no empty sentence).
 * - `jsonl`: one object per line of text: `id` (`<document>:<line>`), `project`, `document`,
 *   `line`, `tokens`, `ner_tags` (indices into the tag list).
 * - `spacy`: one object per line of text: `text`, `entities` (`[start, end, label]`, character
 *   offsets, end exclusive), `project`, `document`, `line`.
 */
export function formatDocument(format: ExportFormat, doc: ExportedDocument, tagIndex: ReadonlyMap<string, number>): string {
  let out = '';
  if (format === 'conll') {
    out = `${CONLL_DOCSTART}\n\n`;
    for (const line of doc.lines) {
      if (line.tokens.length === 0) continue;
      for (let t = 0; t < line.tokens.length; t++) {
        const token = line.tokens[t]!;
        const problem = unwritable('conll', token);
        if (problem) throw new ExportError('FORMAT', '--format', `${doc.projectId}/${doc.documentId} line ${line.line}: token ${t} ${JSON.stringify(token)} ${problem}: use jsonl or spacy`);
        out += `${token} -X- -X- ${line.tags[t]}\n`;
      }
      out += '\n';
    }
    return out;
  }
  for (const line of doc.lines) {
    const where = { project: doc.projectId, document: doc.documentId, line: line.line };
    if (format === 'jsonl') out += JSON.stringify({ id: `${doc.documentId}:${line.line}`, ...where, tokens: line.tokens, ner_tags: line.tags.map((t) => tagIndex.get(t)!) }) + '\n';
    else out += JSON.stringify({ text: line.text, entities: line.spans.map((s) => [s.start, s.end, s.label]), ...where }) + '\n';
  }
  return out;
}
