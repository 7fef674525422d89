import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Production's other service providers. schema.graphql (the client's subset) knows only CUSTOM; the
 * emulator adds these so that a request naming one reaches the resolver and is refused there with
 * every other problem of the input, as the service does, instead of failing GraphQL coercion alone.
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
 * The SDL the emulator serves: the package's own schema.graphql plus the emulator's extensions.
 *
 * @returns SDL text
 * @throws Error when schema.graphql is not beside the package
 * @remarks The file is found from this module both in `src/emulator/` (tests, tsx) and in
 * `dist/src/emulator/` (the built package), so the emulator serves the schema the client was
 * generated from.
 */
export function loadSchemaSource(): string {
  const tried: string[] = [];
  for (const up of ['../../schema.graphql', '../../../schema.graphql']) {
    const path = fileURLToPath(new URL(up, import.meta.url));
    tried.push(path);
    if (existsSync(path)) return readFileSync(path, 'utf8') + EMULATOR_EXTENSIONS;
  }
  throw new Error(`[Emulator] schema.graphql not found; looked at ${tried.join(' and ')}`);
}
