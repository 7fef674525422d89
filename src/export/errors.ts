import type { LeftOutReason } from './types.js';

/** What an {@link ExportError} is about. */
export type ExportErrorCode = 'FORMAT' | 'LAYER' | 'OUT' | 'LOCKED' | 'RESUME' | 'RELEASE' | 'FILTER';

/**
 * An export that cannot be done as asked: a format that does not exist or cannot hold a label or
 * token, a label set that is not there, an output that cannot be written or that another export
 * writes (`LOCKED`), or a resume with other flags than the export it would go on from, or from a
 * checkpoint or partial file that does not prove itself (`RESUME`); for a release (`RELEASE`), a
 * `--since` or delta that is not a manifest of the same options; a `--labels` name in no label set (`FILTER`).
 *
 * @remarks `field` is the CLI flag at fault (`--format`, `--layer`, `--out`); the CLI prints it as a
 * usage problem (exit 2). Thrown before anything is written, except `FORMAT` for a token that
 * `conll` cannot hold, which is found as the document is written.
 */
export class ExportError extends Error {
  override name = 'ExportError';
  /**
   * @param code - what is wrong
   * @param field - the flag at fault
   * @param message - what is wrong, and what to do
   */
  constructor(
    readonly code: ExportErrorCode,
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * An export stopped by its signal (Ctrl-C): what was written is checkpointed, and the same call
 * goes on from there.
 *
 * @remarks The CLI prints the message and exits 130.
 */
export class ExportInterrupted extends Error {
  override name = 'ExportInterrupted';
  /**
   * @param documents - the documents written (all of them checkpointed); null when it stopped before the documents were planned
   * @param total - the documents planned (the projects, when it stopped before)
   */
  constructor(
    readonly documents: number | null,
    readonly total: number,
  ) {
    const n = (count: number) => count.toLocaleString('en');
    super(
      documents === null
        ? 'interrupted before anything was written; run the same command to start again'
        : `interrupted at document ${n(documents)} of ${n(total)}; run the same command to resume`,
    );
  }
}

/**
 * A label a flat format cannot hold as it is, refused because of `--strict`.
 *
 * @remarks `reason` says which rule; the message names the document, the line and the label.
 */
export class StrictExportError extends Error {
  override name = 'StrictExportError';
  /**
   * @param reason - the rule the label broke
   * @param message - which label, where, and why
   */
  constructor(
    readonly reason: LeftOutReason,
    message: string,
  ) {
    super(message);
  }
}
