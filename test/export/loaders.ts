// Readers of the three export formats written the way their usual loaders read them, so that a
// test can say "a training script reads this file": CoNLL-2003 as Hugging Face's conll2003 script
// and seqeval read it (split on white space, first column the token, last the tag, -DOCSTART-
// lines and blank lines as separators); JSON lines as `datasets`' json loader with a ClassLabel
// tag list; spaCy's `[start, end, label]` entities as `Doc.char_span` takes them.

/** A span as the loaders give it back: the line's position in the export, whole tokens, a label. */
export interface LoadedSpan {
  document: number;
  sentence: number;
  startToken: number;
  endToken: number;
  label: string;
}

/** A problem a loader would trip on, or a rule of IOB2 broken. */
export class LoaderError extends Error {}

/**
 * IOB2 validity: every tag is `O`, `B-X` or `I-X`, and `I-X` follows `B-X` or `I-X`.
 *
 * @returns the spans the tags mark, as [start token, end token, label]
 */
export function iob2Spans(tags: readonly string[], where: string): [number, number, string][] {
  const spans: [number, number, string][] = [];
  tags.forEach((tag, i) => {
    if (tag === 'O') return;
    const m = /^([BI])-(\S+)$/.exec(tag);
    if (!m) throw new LoaderError(`${where} token ${i}: ${JSON.stringify(tag)} is not an IOB2 tag`);
    const [, kind, label] = m;
    if (kind === 'B') spans.push([i, i, label!]);
    else {
      const last = spans[spans.length - 1];
      if (!last || last[1] !== i - 1 || last[2] !== label) throw new LoaderError(`${where} token ${i}: ${tag} does not continue a ${label} span (not IOB2)`);
      last[1] = i;
    }
  });
  return spans;
}

/** A CoNLL-2003 file: documents of sentences of [token, tag] pairs (the HF conll2003 script's reading). */
export function readConll(text: string): { tokens: string[]; tags: string[] }[][] {
  const documents: { tokens: string[]; tags: string[] }[][] = [];
  let sentence: { tokens: string[]; tags: string[] } = { tokens: [], tags: [] };
  const end = () => {
    if (sentence.tokens.length > 0) {
      if (documents.length === 0) throw new LoaderError('a sentence before the first -DOCSTART-');
      documents[documents.length - 1]!.push(sentence);
    }
    sentence = { tokens: [], tags: [] };
  };
  for (const [n, line] of text.split('\n').entries()) {
    if (line.startsWith('-DOCSTART-')) {
      end();
      documents.push([]);
    } else if (line.trim() === '') end();
    else {
      const columns = line.split(' ');
      if (columns.length !== 4) throw new LoaderError(`line ${n + 1}: ${columns.length} columns, CoNLL-2003 has 4`);
      sentence.tokens.push(columns[0]!);
      sentence.tags.push(columns[3]!);
    }
  }
  end();
  return documents;
}

/** The spans of a CoNLL export, after checking IOB2. */
export function conllSpans(text: string): LoadedSpan[] {
  return readConll(text).flatMap((sentences, document) =>
    sentences.flatMap((s, sentence) => iob2Spans(s.tags, `document ${document} sentence ${sentence}`).map(([startToken, endToken, label]) => ({ document, sentence, startToken, endToken, label }))),
  );
}

/** A JSON-lines export with its tag list: each row checked as `datasets` with a ClassLabel feature reads it. */
export function readJsonl(text: string, tagList: unknown): { id: string; document: string; line: number; tokens: string[]; tags: string[] }[] {
  if (!Array.isArray(tagList) || tagList[0] !== 'O' || new Set(tagList).size !== tagList.length || !tagList.every((t) => typeof t === 'string')) throw new LoaderError('the tag list is not a list of distinct names starting with O');
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l, n) => {
      const row = JSON.parse(l) as { id: string; document: string; line: number; tokens: string[]; ner_tags: number[] };
      if (!Array.isArray(row.tokens) || !Array.isArray(row.ner_tags) || row.tokens.length !== row.ner_tags.length) throw new LoaderError(`row ${n}: tokens and ner_tags differ in length`);
      const tags = row.ner_tags.map((i) => {
        if (!Number.isInteger(i) || i < 0 || i >= tagList.length) throw new LoaderError(`row ${n}: ner_tag ${i} is not in the tag list`);
        return tagList[i] as string;
      });
      iob2Spans(tags, `row ${n}`);
      return { id: row.id, document: row.document, line: row.line, tokens: row.tokens, tags };
    });
}

/** A spaCy JSON-lines export: `text` and `entities` as `[start, end, label]`, checked as `Doc.char_span` needs them. */
export function readSpacy(text: string): { text: string; document: string; line: number; entities: [number, number, string][] }[] {
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l, n) => {
      const row = JSON.parse(l) as { text: string; document: string; line: number; entities: [number, number, string][] };
      let after = 0;
      for (const [start, end, label] of row.entities) {
        if (!(Number.isInteger(start) && Number.isInteger(end) && 0 <= start && start < end && end <= row.text.length)) throw new LoaderError(`row ${n}: [${start}, ${end}] is not inside the text`);
        if (start < after) throw new LoaderError(`row ${n}: entities overlap at ${start} (spaCy's doc.ents refuses that)`);
        if (typeof label !== 'string' || label === '') throw new LoaderError(`row ${n}: an entity without a label`);
        if (row.text.slice(start, end).trim() !== row.text.slice(start, end)) throw new LoaderError(`row ${n}: [${start}, ${end}] starts or ends with white space`);
        after = end;
      }
      return row;
    });
}
