import type { Predict, SpanEntity } from './contract.js';

/** Options of {@link createSampleModel}. */
export interface SampleModelOptions {
  /**
   * Terms per label; each label's own name is a term too.
   * @defaultValue terms that fit the emulator's demo project (PERSON, ORGANIZATION, LOCATION, DATE)
   */
  terms?: Record<string, string[]>;
}

/** Terms that fit the emulator's built-in demo project. */
export const DEMO_TERMS: Record<string, string[]> = {
  PERSON: ['Ada Lovelace', 'Alan Turing', 'Grace Hopper', 'John Smith', 'Maria', 'Ravi'],
  ORGANIZATION: ['Acme Corp', 'Globex', 'Initech', 'United Nations', 'Red Cross'],
  LOCATION: ['London', 'Paris', 'Nairobi', 'Tokyo', 'Lisbon', 'Berlin'],
  DATE: ['Monday', 'Tuesday', 'Friday', 'January', 'March', 'December', '2024'],
};

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A deterministic gazetteer model: finds label names and configured terms in each line.
 *
 * @param options - the terms per label
 * @returns a {@link Predict} function for `createModelHandler`
 * @remarks Case-insensitive, whole words, longest term first, non-overlapping, left to right.
 * One regular expression is compiled up front; no weights, no network.
 * @example
 * ```ts
 * const predict = createSampleModel({ terms: { PERSON: ['Ada'] } });
 * ```
 */
export function createSampleModel(options: SampleModelOptions = {}): Predict {
  const terms = options.terms ?? DEMO_TERMS;
  const labelOf = new Map<string, string>();
  for (const [label, list] of Object.entries(terms)) {
    for (const term of [label, ...list]) if (term.trim()) labelOf.set(term.toLowerCase(), label);
  }
  const sorted = [...labelOf.keys()].sort((a, b) => b.length - a.length || a.localeCompare(b));
  const pattern = sorted.length > 0 ? new RegExp(`(?<![\\p{L}\\p{N}_])(?:${sorted.map(escape).join('|')})(?![\\p{L}\\p{N}_])`, 'giu') : null;

  return (request) => ({
    id: request.id,
    documents: request.documents.map((doc) => ({
      id: doc.id,
      labels: doc.sentences.map((sentence) => {
        const entities: SpanEntity[] = [];
        if (pattern) {
          for (const m of sentence.text.matchAll(pattern)) {
            entities.push({ label: labelOf.get(m[0].toLowerCase())!, start_char: m.index, end_char: m.index + m[0].length, confidence_score: 1, layer: 0 });
          }
        }
        return { id: sentence.id, entities };
      }),
    })),
  });
}
