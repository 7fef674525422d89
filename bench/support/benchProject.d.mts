/** The model concurrency of the emulator and of the raw caller (the emulator's default, given explicitly). */
export declare const BENCH_MODEL_CONCURRENCY: number;

/** The label set of every benchmark project: the four labels of the sample model's default terms. */
export declare const BENCH_LABEL_SETS: { name: string; labels: { id: string; name: string }[] }[];

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
 * @param id - the project's id (and name)
 * @param docs - how many documents
 * @param linesPerDoc - how many lines each document has
 * @returns the project, without label sets
 * @remarks A line written as a template literal (`${word} (${d}/${i}).`) is a tree of V8 cons
 * strings and number strings, kept as such until something flattens it: about 160 MB of heap at
 * 1,000,000 lines, against about 57 MB for the same text as flat strings (measured with
 * `--expose-gc`, heap used after a full collection). The benchmark measures the emulator, not
 * how the benchmark spells its input, so each document's lines go through one `JSON.parse`,
 * which gives every line its own sequential string.
 */
export declare function benchProject(id: string, docs: number, linesPerDoc: number): BenchProject;
