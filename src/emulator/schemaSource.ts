import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { schemaInGeneration } from '../shared/schemaGeneration.js';
import type { SchemaGeneration } from '../shared/constants.js';

/**
 * What the emulator serves beyond schema.graphql.
 *
 * - Production's other service providers. schema.graphql (the client's subset) knows only CUSTOM;
 *   the emulator adds these so that a request naming one reaches the resolver and is refused there
 *   with every other problem of the input, as the service does, instead of failing GraphQL
 *   coercion alone.
 */
const EMULATOR_EXTENSIONS = `
extend enum GqlAutoLabelServiceProvider {
  ASSISTED_LABELING
  CORENLP_NER
  CORENLP_POS
  DISTILBERT_OPIEC
  HUGGINGFACE
  NLTK
  SENTIMENT_ANALYSIS
  SPACY
  SPARKNLP_NER
  SPARKNLP_POS
}
`;

/**
 * The SDL the emulator serves in one schema generation, from the text of schema.graphql.
 *
 * @param schemaSdl - the text of schema.graphql, written in either generation
 * @param generation - `tags` (today's production) or `labels` (after the rename)
 * @returns SDL text: the schema in that generation plus the emulator's extensions
 * @remarks `codegen.ts` generates the emulator's resolver types from this same text, so the
 * resolvers are type-checked against exactly what the emulator serves.
 * @example
 * ```ts
 * emulatorSchemaSource(readFileSync('schema.graphql', 'utf8'), 'labels');
 * ```
 */
export function emulatorSchemaSource(schemaSdl: string, generation: SchemaGeneration): string {
  return `${schemaInGeneration(schemaSdl, generation)}\n${EMULATOR_EXTENSIONS}`;
}

/**
 * The text of the package's own schema.graphql.
 *
 * @returns SDL text, in whichever generation the file is written
 * @throws Error when schema.graphql is not beside the package
 * @remarks The file is found from this module both in `src/emulator/` (the checkout's
 * schema.graphql, for tests and tsx) and in labelkit-tools' `dist/` (the copy that
 * `npm run build` puts beside it), so the emulator serves the schema the client was generated from.
 * @example
 * ```ts
 * const sdl = loadSchemaSource();
 * ```
 */
export function loadSchemaSource(): string {
  const tried: string[] = [];
  // labelkit-tools/dist/*.js → labelkit-tools/schema.graphql; src/emulator/ → the checkout's.
  for (const up of ['../schema.graphql', '../../schema.graphql']) {
    const path = fileURLToPath(new URL(up, import.meta.url));
    tried.push(path);
    if (existsSync(path)) return readFileSync(path, 'utf8');
  }
  throw new Error(`[Emulator] schema.graphql not found; looked at ${tried.join(' and ')}`);
}
