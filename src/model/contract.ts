/**
 * The span-labeling contract between the service and a customer's model endpoint
 * (see API-FACTS: "The customer's model endpoint"). Pure types and checks, no I/O.
 */

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

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

/**
 * Checks a request body against the contract.
 *
 * @param body - the parsed JSON body
 * @returns every problem, with its path; empty when the request is valid
 */
export function validateSpanRequest(body: unknown): ContractProblem[] {
  if (!isObject(body)) return [{ path: '$', message: 'must be a JSON object' }];
  const problems: ContractProblem[] = [];
  if (typeof body.id !== 'string' || body.id === '') problems.push({ path: '$.id', message: 'must be a non-empty string (the project id)' });
  if (typeof body.name !== 'string') problems.push({ path: '$.name', message: 'must be a string (the project name)' });
  if (!Array.isArray(body.documents)) return [...problems, { path: '$.documents', message: 'must be an array' }];
  body.documents.forEach((doc: unknown, d) => {
    const at = `$.documents[${d}]`;
    if (!isObject(doc)) return problems.push({ path: at, message: 'must be an object' });
    if (typeof doc.id !== 'string' || doc.id === '') problems.push({ path: `${at}.id`, message: 'must be a non-empty string' });
    if (!Array.isArray(doc.sentences)) return problems.push({ path: `${at}.sentences`, message: 'must be an array' });
    doc.sentences.forEach((s: unknown, i) => {
      const sp = `${at}.sentences[${i}]`;
      if (!isObject(s)) return problems.push({ path: sp, message: 'must be an object' });
      if (!isInt(s.id) || s.id < 0) problems.push({ path: `${sp}.id`, message: 'must be an integer >= 0 (the line number)' });
      if (typeof s.text !== 'string') problems.push({ path: `${sp}.text`, message: 'must be a string' });
      return undefined;
    });
    return undefined;
  });
  return problems;
}

/**
 * Checks a model's answer against the contract and against the request it answers: the same
 * project and document ids, line ids that were asked for, offsets inside the line.
 *
 * @param body - the parsed JSON answer
 * @param request - the request it answers
 * @returns every problem, with its path; empty when the answer is valid
 */
export function validateSpanResponse(body: unknown, request: SpanRequest): ContractProblem[] {
  if (!isObject(body)) return [{ path: '$', message: 'must be a JSON object' }];
  const problems: ContractProblem[] = [];
  if (body.id !== request.id) problems.push({ path: '$.id', message: `must be the project id of the request (${request.id})` });
  if (!Array.isArray(body.documents)) return [...problems, { path: '$.documents', message: 'must be an array' }];
  const docs = new Map(request.documents.map((d) => [d.id, new Map(d.sentences.map((s) => [s.id, s.text]))]));
  body.documents.forEach((doc: unknown, d) => {
    const at = `$.documents[${d}]`;
    if (!isObject(doc)) return problems.push({ path: at, message: 'must be an object' });
    const lines = typeof doc.id === 'string' ? docs.get(doc.id) : undefined;
    if (!lines) return problems.push({ path: `${at}.id`, message: `must be a document id of the request, got ${JSON.stringify(doc.id)}` });
    if (!Array.isArray(doc.labels)) return problems.push({ path: `${at}.labels`, message: 'must be an array' });
    doc.labels.forEach((line: unknown, l) => {
      const lp = `${at}.labels[${l}]`;
      if (!isObject(line)) return problems.push({ path: lp, message: 'must be an object' });
      const text = isInt(line.id) ? lines.get(line.id) : undefined;
      if (text === undefined) return problems.push({ path: `${lp}.id`, message: `must be a line id of the request, got ${JSON.stringify(line.id)}` });
      if (!Array.isArray(line.entities)) return problems.push({ path: `${lp}.entities`, message: 'must be an array' });
      line.entities.forEach((e: unknown, i) => {
        const ep = `${lp}.entities[${i}]`;
        if (!isObject(e)) return problems.push({ path: ep, message: 'must be an object' });
        if (typeof e.label !== 'string' || e.label === '') problems.push({ path: `${ep}.label`, message: 'must be a non-empty string' });
        if (!isInt(e.start_char) || !isInt(e.end_char) || e.start_char < 0 || e.end_char <= e.start_char || e.end_char > text.length) {
          problems.push({ path: ep, message: `start_char/end_char must satisfy 0 <= start < end <= ${text.length} (the line's length)` });
        }
        if (e.confidence_score !== undefined && (typeof e.confidence_score !== 'number' || e.confidence_score < 0 || e.confidence_score > 1)) {
          problems.push({ path: `${ep}.confidence_score`, message: 'must be a number from 0 to 1' });
        }
        if (e.layer !== undefined && (!isInt(e.layer) || e.layer < 0)) problems.push({ path: `${ep}.layer`, message: 'must be an integer >= 0' });
        return undefined;
      });
      return undefined;
    });
    return undefined;
  });
  return problems;
}
