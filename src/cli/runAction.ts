import { createPrinter } from './io.js';
import type { Io, Printer } from './io.js';
import type { FieldNames } from './reportError.js';

/** Flags every command has. */
export interface CommonFlags {
  /** Machine-readable output on stdout. */
  json?: boolean;
  /** Details, and the stack of an error. */
  verbose?: boolean;
}

/** What a command's action receives. */
export interface ActionContext {
  io: Io;
  printer: Printer;
  flags: CommonFlags;
  /** Aborted on the first Ctrl-C (a second one ends the process at once). */
  signal: AbortSignal;
}

/**
 * Runs one command's work inside the CLI's error boundary.
 *
 * @param io - the process (or a test's stand-in)
 * @param flags - `--json`, `--verbose`
 * @param work - the command; resolves with its exit code
 * @param fields - names of flags for the client's validation paths, for error messages
 * @returns the exit code: `work`'s, or the one `exitCodeOf` gives for what it threw
 * @remarks Errors are printed by `reportError` (one line plus a hint; the stack only with
 * `--verbose`; never a secret). The first Ctrl-C aborts `signal`; the handler is then removed,
 * so a second Ctrl-C ends the process the default way.
 */
export async function runAction(
  io: Io,
  flags: CommonFlags,
  work: (context: ActionContext) => Promise<number>,
  fields?: FieldNames,
): Promise<number> {
  const printer = createPrinter(io);
  const controller = new AbortController();
  const remove = io.onInterrupt(() => {
    remove();
    controller.abort();
  });
  try {
    return await work({ io, printer, flags, signal: controller.signal });
  } catch (error) {
    // Loaded only when a command fails: both read the client's error guard (its entry loads urql),
    // and runAction is part of the start-up that `labelkit --help` pays for.
    const [{ reportError }, { exitCodeOf }] = await Promise.all([import('./reportError.js'), import('./exitCodeOf.js')]);
    reportError(error, printer, { verbose: flags.verbose === true, ...(fields && { fields }) });
    return exitCodeOf(error);
  } finally {
    remove();
  }
}
