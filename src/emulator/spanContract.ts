/**
 * The span-labeling contract as the service side sees it (API-FACTS, "The customer's model
 * endpoint"). The emulator keeps its own copy of these wire shapes so that it does not depend on
 * the model kit: both sides must agree with the published contract, not with each other's code.
 */
import type { StoredSpan } from './types.js';

/** The body the emulator POSTs to `targetAPI.endpoint`. */
export interface ModelRequest {
  id: string;
  name: string;
  documents: { id: string; sentences: { id: number; text: string }[] }[];
}

/** A model's answer once checked: per document, the labels of each line it answered. */
export type CheckedAnswer = { documentId: string; lines: { id: number; entities: StoredSpan[] }[] }[];

/** One broken rule in a model's answer. */
export interface AnswerProblem {
  /** JSON path in the answer, e.g. `$.documents[0].labels[2].entities[1].end_char`. */
  path: string;
  message: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

/**
 * Checks a model's answer against the request it answers and the project's span labels.
 *
 * @param body - the parsed JSON answer
 * @param request - the request it answers
 * @param spanLabels - lower-cased names of the labels that may mark spans (types SPAN and ALL)
 * @returns the labels per line when the answer is valid, and every problem otherwise
 * @remarks Rules: `id` is the project id; every document of the request appears exactly once and no
 * other; line ids are lines of the request, at most once each; every entity has a label known to the
 * project (case-insensitive), integer offsets with `0 <= start_char < end_char <= line length`, an
 * optional `confidence_score` from 0 to 1 and an optional integer `layer >= 0` (default 0).
 * Lines the answer leaves out get no labels.
 */
export function checkModelAnswer(body: unknown, request: ModelRequest, spanLabels: ReadonlySet<string>): { answer?: CheckedAnswer; problems: AnswerProblem[] } {
  if (!isObject(body)) return { problems: [{ path: '$', message: 'the answer must be a JSON object' }] };
  const problems: AnswerProblem[] = [];
  const add = (path: string, message: string) => void problems.push({ path, message });
  if (body.id !== request.id) add('$.id', `must be the project id of the request ("${request.id}"), got ${JSON.stringify(body.id) ?? 'nothing'}`);
  if (!Array.isArray(body.documents)) return { problems: [...problems, { path: '$.documents', message: 'must be an array' }] };
  const asked = new Map(request.documents.map((d) => [d.id, new Map(d.sentences.map((s) => [s.id, s.text]))]));
  const answered = new Set<string>();
  const answer: CheckedAnswer = [];
  body.documents.forEach((doc: unknown, d) => {
    const at = `$.documents[${d}]`;
    if (!isObject(doc)) return add(at, 'must be an object');
    const lines = typeof doc.id === 'string' ? asked.get(doc.id) : undefined;
    if (!lines) return add(`${at}.id`, `must be a document id of the request, got ${JSON.stringify(doc.id) ?? 'nothing'}`);
    if (answered.has(doc.id as string)) return add(`${at}.id`, `document "${doc.id}" is answered twice`);
    answered.add(doc.id as string);
    if (!Array.isArray(doc.labels)) return add(`${at}.labels`, 'must be an array');
    const out: CheckedAnswer[number] = { documentId: doc.id as string, lines: [] };
    const seenLines = new Set<number>();
    doc.labels.forEach((line: unknown, l) => {
      const lp = `${at}.labels[${l}]`;
      if (!isObject(line)) return add(lp, 'must be an object');
      const text = isInt(line.id) ? lines.get(line.id) : undefined;
      if (text === undefined) return add(`${lp}.id`, `must be a line id of the request, got ${JSON.stringify(line.id) ?? 'nothing'}`);
      if (seenLines.has(line.id as number)) return add(`${lp}.id`, `line ${line.id} is answered twice`);
      seenLines.add(line.id as number);
      if (!Array.isArray(line.entities)) return add(`${lp}.entities`, 'must be an array');
      const entities: StoredSpan[] = [];
      line.entities.forEach((e: unknown, i) => {
        const ep = `${lp}.entities[${i}]`;
        if (!isObject(e)) return add(ep, 'must be an object');
        const before = problems.length;
        if (typeof e.label !== 'string' || e.label === '') add(`${ep}.label`, 'must be a non-empty string');
        else if (!spanLabels.has(e.label.toLowerCase())) add(`${ep}.label`, `label "${e.label}" is not a span label of the project's label sets`);
        if (!isInt(e.start_char) || !isInt(e.end_char) || e.start_char < 0 || e.end_char <= e.start_char || e.end_char > text.length) {
          add(ep, `offsets start_char=${JSON.stringify(e.start_char)} end_char=${JSON.stringify(e.end_char)} must be integers with 0 <= start_char < end_char <= ${text.length} (the line's length)`);
        }
        if (e.confidence_score !== undefined && (typeof e.confidence_score !== 'number' || !(e.confidence_score >= 0 && e.confidence_score <= 1))) {
          add(`${ep}.confidence_score`, 'must be a number from 0 to 1');
        }
        if (e.layer !== undefined && (!isInt(e.layer) || e.layer < 0)) add(`${ep}.layer`, 'must be an integer >= 0');
        if (problems.length > before) return undefined;
        const span: StoredSpan = { label: e.label as string, start_char: e.start_char as number, end_char: e.end_char as number, layer: (e.layer as number | undefined) ?? 0 };
        if (e.confidence_score !== undefined) span.confidence_score = e.confidence_score as number;
        entities.push(span);
        return undefined;
      });
      out.lines.push({ id: line.id as number, entities });
      return undefined;
    });
    answer.push(out);
    return undefined;
  });
  for (const id of asked.keys()) if (!answered.has(id)) add('$.documents', `document "${id}" of the request is not answered`);
  return problems.length > 0 ? { problems } : { answer, problems };
}
