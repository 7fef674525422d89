/** Five sentences in turn; with the sample model's terms they give 1.2 spans per line on average. */
const WORDS = ['Ada Lovelace met', 'the team of Acme Corp in London on Monday', 'and wrote a note', 'about Grace Hopper', 'in March'];

/** The model concurrency of the emulator and of the raw caller (the emulator's default, given explicitly). */
export const BENCH_MODEL_CONCURRENCY = 4;

/** The label set of every benchmark project: the four labels of the sample model's default terms. */
export const BENCH_LABEL_SETS = [{ name: 'E', labels: ['PERSON', 'ORGANIZATION', 'LOCATION', 'DATE'].map((name) => ({ id: name.toLowerCase(), name })) }];

/** A project's id, name and documents: what both the raw caller and the emulator's store take. */
export interface BenchProject {
  id: string;
  name: string;
  documents: { id: string; lines: string[] }[];
}

/**
 * A benchmark project of `docs` documents of `linesPerDoc` lines, each line a flat string, as
 * lines read from a file are.
 *
 * @remarks A line written as a template literal (`${word} (${d}/${i}).`) is a tree of V8 cons
 * strings and number strings, kept as such until something flattens it: about 160 MB of heap at
 * 1,000,000 lines, against about 57 MB for the same text as flat strings (measured with
 * `--expose-gc`, heap used after a full collection). The benchmark measures the emulator, not
 * how the benchmark spells its input, so each document's lines go through one `JSON.parse`,
 * which gives every line its own sequential string.
 */
export function benchProject(id: string, docs: number, linesPerDoc: number): BenchProject {
  return {
    id,
    name: id,
    documents: Array.from({ length: docs }, (_, d) => ({
      id: `doc-${d}`,
      lines: JSON.parse(JSON.stringify(Array.from({ length: linesPerDoc }, (_, i) => `${WORDS[i % WORDS.length]} (${d}/${i}).`))) as string[],
    })),
  };
}
