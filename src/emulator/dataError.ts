/** One problem in project data: where (file and line when it came from a data folder) and what. */
export interface DataErrorProblem {
  /** The file at fault, when the data came from a folder. */
  file?: string;
  /** The 1-based line in that file, when known. */
  line?: number;
  /** The value at fault, e.g. `labelSets[0].labels[2].parentId`. */
  path?: string;
  message: string;
}

/**
 * Formats one problem as `file:line: path: message`, leaving out the parts that are unknown.
 *
 * @param p - the problem
 * @returns one line of text, e.g. `data/p1/label-sets/a.csv:4: labels[2].parentId: …`
 */
function formatDataProblem(p: DataErrorProblem): string {
  const where = p.file ? `${p.file}${p.line ? `:${p.line}` : ''}` : '';
  return [where, p.path, p.message].filter(Boolean).join(': ');
}

/**
 * Thrown when project data breaks a rule: by `store.addProject` and by loading a data folder.
 *
 * @remarks Lists every problem at once, one per line of the message, each naming the file and the
 * 1-based line when the data came from a folder (`DIR/p1/label-sets/a.csv:4: …`).
 * @example
 * ```ts
 * try { await startEmulator({ dataDir: './data' }); }
 * catch (e) { if (e instanceof EmulatorDataError) for (const p of e.problems) console.error(p.file, p.line, p.message); }
 * ```
 */
export class EmulatorDataError extends Error {
  override readonly name = 'EmulatorDataError';
  /** Every problem found. */
  readonly problems: DataErrorProblem[];

  /**
   * @param summary - what was being loaded, e.g. `project "p1"`
   * @param problems - every problem found (at least one)
   */
  constructor(summary: string, problems: DataErrorProblem[]) {
    super(`[Emulator] ${summary} has ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n${problems.map((p) => `  ${formatDataProblem(p)}`).join('\n')}`);
    this.problems = problems;
  }
}
