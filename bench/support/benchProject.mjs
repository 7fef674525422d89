// The projects of the emulator-throughput benchmark (types and docs in benchProject.d.mts). Plain
// JavaScript, so that the emulator's benchmark process runs on plain node, without tsx's loader
// (which adds about 40 MB of RSS: a loader thread and its compiler).

/** Five sentences in turn; with the sample model's terms they give 1.2 spans per line on average. */
const WORDS = ['Ada Lovelace met', 'the team of Acme Corp in London on Monday', 'and wrote a note', 'about Grace Hopper', 'in March'];

export const BENCH_MODEL_CONCURRENCY = 4;

export const BENCH_LABEL_SETS = [{ name: 'E', labels: ['PERSON', 'ORGANIZATION', 'LOCATION', 'DATE'].map((name) => ({ id: name.toLowerCase(), name })) }];

export function benchProject(id, docs, linesPerDoc) {
  return {
    id,
    name: id,
    documents: Array.from({ length: docs }, (_, d) => ({
      id: `doc-${d}`,
      // One JSON round trip per document: every line becomes a flat string (see the .d.mts).
      lines: JSON.parse(JSON.stringify(Array.from({ length: linesPerDoc }, (_, i) => `${WORDS[i % WORDS.length]} (${d}/${i}).`))),
    })),
  };
}
