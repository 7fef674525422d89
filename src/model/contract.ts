/**
 * The span-labeling contract between the service and a customer's model endpoint
 * (see API-FACTS: "The customer's model endpoint"). Pure types and checks, no I/O.
 */
import { isRecord } from '../shared/isRecord.js';

/** One line of a document, as sent to the model. `id` is the zero-based line number. */
export interface SpanSentence {
  id: number;
  text: string;
  metadata?: { key: string; value: string; type: string }[];
}
/** The request body the service POSTs to the model. */
export interface SpanRequest {
  id: string;
  name: string;
  documents: { id: string; sentences: SpanSentence[] }[];
}
/** One predicted span: `start_char` inclusive, `end_char` exclusive, within the line's text. */
export interface SpanEntity {
  label: string;
  start_char: number;
  end_char: number;
  confidence_score?: number;
  layer?: number;
}
/** The model's answer. */
export interface SpanResponse {
  id: string;
  documents: { id: string; labels: { id: number; entities: SpanEntity[] }[] }[];
}
/** A prediction function: what a model endpoint computes. */
export type Predict = (request: SpanRequest) => SpanResponse | Promise<SpanResponse>;

/** One broken rule, with the JSON path at fault. */
export interface ContractProblem {
  path: string;
  message: string;
}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

/**
 * Checks a request body against the contract.
 *
 * @param body - the parsed JSON body
 * @returns every problem, with its path; empty when the request is valid
 */
export function validateSpanRequest(body: unknown): ContractProblem[] {
  if (!isRecord(body)) return [{ path: '$', message: 'must be a JSON object' }];
  const problems: ContractProblem[] = [];
  if (typeof body.id !== 'string' || body.id === '') problems.push({ path: '$.id', message: 'must be a non-empty string (the project id)' });
  if (typeof body.name !== 'string') problems.push({ path: '$.name', message: 'must be a string (the project name)' });
  if (!Array.isArray(body.documents)) return [...problems, { path: '$.documents', message: 'must be an array' }];
  body.documents.forEach((doc: unknown, d) => {
    const at = `$.documents[${d}]`;
    if (!isRecord(doc)) return problems.push({ path: at, message: 'must be an object' });
    if (typeof doc.id !== 'string' || doc.id === '') problems.push({ path: `${at}.id`, message: 'must be a non-empty string' });
    if (!Array.isArray(doc.sentences)) return problems.push({ path: `${at}.sentences`, message: 'must be an array' });
    doc.sentences.forEach((s: unknown, i) => {
      const sp = `${at}.sentences[${i}]`;
      if (!isRecord(s)) return problems.push({ path: sp, message: 'must be an object' });
      if (!isInt(s.id) || s.id < 0) problems.push({ path: `${sp}.id`, message: 'must be an integer >= 0 (the line number)' });
      if (typeof s.text !== 'string') problems.push({ path: `${sp}.text`, message: 'must be a string' });
      return undefined;
    });
    return undefined;
  });
  return problems;
}

/** Options of {@link validateSpanResponse}. */
export interface SpanResponseCheckOptions {
  /**
   * The label names that may mark spans (the project's labels of type SPAN or ALL), compared
   * case-insensitively. @defaultValue any label name
   */
  spanLabels?: Iterable<string>;
}

/**
 * Checks a model's answer against the contract and against the request it answers: the same
 * project id, every document of the request answered exactly once and no other, line ids that
 * were asked for (each at most once), offsets inside the line.
 *
 * @param body - the parsed JSON answer
 * @param request - the request it answers
 * @param options - the span labels of the project, when known (the emulator passes them)
 * @returns every problem, with its path; empty when the answer is valid
 * @remarks The one check of the contract: the model kit's handler checks its own answers with it,
 * `labelkit model check` checks a live endpoint with it, and the emulator's job runner checks every
 * answer with it. Each entity needs a non-empty `label` (one of `spanLabels` when given),
 * integer offsets with `0 <= start_char < end_char <= line length`, an optional
 * `confidence_score` from 0 to 1 and an optional integer `layer >= 0`. Lines an answer leaves
 * out simply get no labels.
 * @example
 * ```ts
 * const problems = validateSpanResponse(answer, request, { spanLabels: ['PERSON'] });
 * if (problems.length > 0) console.log(problems.map((p) => `${p.path}: ${p.message}`).join('\n'));
 * ```
 */
export function validateSpanResponse(body: unknown, request: SpanRequest, options: SpanResponseCheckOptions = {}): ContractProblem[] {
  if (!isRecord(body)) return [{ path: '$', message: 'must be a JSON object' }];
  const labels = options.spanLabels ? new Set([...options.spanLabels].map((l) => l.toLowerCase())) : undefined;
  const problems: ContractProblem[] = [];
  const add = (path: string, message: string) => void problems.push({ path, message });
  const shown = (v: unknown) => JSON.stringify(v) ?? 'nothing';
  if (body.id !== request.id) add('$.id', `must be the project id of the request ("${request.id}"), got ${shown(body.id)}`);
  if (!Array.isArray(body.documents)) return [...problems, { path: '$.documents', message: 'must be an array' }];
  const asked = new Map(request.documents.map((d) => [d.id, new Map(d.sentences.map((s) => [s.id, s.text]))]));
  const answered = new Set<string>();
  body.documents.forEach((doc: unknown, d) => {
    const at = `$.documents[${d}]`;
    if (!isRecord(doc)) return add(at, 'must be an object');
    const lines = typeof doc.id === 'string' ? asked.get(doc.id) : undefined;
    if (!lines) return add(`${at}.id`, `must be a document id of the request, got ${shown(doc.id)}`);
    if (answered.has(doc.id as string)) return add(`${at}.id`, `document "${doc.id}" is answered twice`);
    answered.add(doc.id as string);
    if (!Array.isArray(doc.labels)) return add(`${at}.labels`, 'must be an array');
    const seenLines = new Set<number>();
    doc.labels.forEach((line: unknown, l) => {
      const lp = `${at}.labels[${l}]`;
      if (!isRecord(line)) return add(lp, 'must be an object');
      const text = isInt(line.id) ? lines.get(line.id) : undefined;
      if (text === undefined) return add(`${lp}.id`, `must be a line id of the request, got ${shown(line.id)}`);
      if (seenLines.has(line.id as number)) return add(`${lp}.id`, `line ${line.id} is answered twice`);
      seenLines.add(line.id as number);
      if (!Array.isArray(line.entities)) return add(`${lp}.entities`, 'must be an array');
      line.entities.forEach((e: unknown, i) => {
        const ep = `${lp}.entities[${i}]`;
        if (!isRecord(e)) return add(ep, 'must be an object');
        if (typeof e.label !== 'string' || e.label === '') add(`${ep}.label`, 'must be a non-empty string');
        else if (labels && !labels.has(e.label.toLowerCase())) add(`${ep}.label`, `label "${e.label}" is not a span label of the project's label sets`);
        if (!isInt(e.start_char) || !isInt(e.end_char) || e.start_char < 0 || e.end_char <= e.start_char || e.end_char > text.length) {
          add(ep, `start_char/end_char must satisfy 0 <= start_char < end_char <= ${text.length} (the line's length) as integers, got start_char=${shown(e.start_char)} end_char=${shown(e.end_char)}`);
        }
        if (e.confidence_score !== undefined && (typeof e.confidence_score !== 'number' || !(e.confidence_score >= 0 && e.confidence_score <= 1))) {
          add(`${ep}.confidence_score`, 'must be a number from 0 to 1');
        }
        if (e.layer !== undefined && (!isInt(e.layer) || e.layer < 0)) add(`${ep}.layer`, 'must be an integer >= 0');
        return undefined;
      });
      return undefined;
    });
    return undefined;
  });
  for (const id of asked.keys()) if (!answered.has(id)) add('$.documents', `document "${id}" of the request is not answered`);
  return problems;
}
