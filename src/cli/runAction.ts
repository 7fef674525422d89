import type { ConnectionFlags } from './connection.js';
import { createPrinter } from './io.js';
import type { Io, Printer } from './io.js';
import type { HintTerms } from './reportError.js';

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
 * How a command speaks in its hints: its name, its flags for the client's paths and options, and
 * what it calls.
 */
interface CommandTerms extends Omit<HintTerms, 'connection'> {
  /**
   * Whether the command calls the service with the connection flags (`--url`, `--token-file`, …);
   * its hints then name where the URL and the credential came from.
   *
   * @defaultValue true, unless `target` is given
   */
  service?: boolean;
}

/**
 * Runs one command's work inside the CLI's error boundary.
 *
 * @param io - the process (or a test's stand-in)
 * @param flags - `--json`, `--verbose` (and the command's other flags: the connection flags tell
 * the hints where the URL and the credential came from)
 * @param work - the command; resolves with its exit code
 * @param terms - the command's name, flags and target, for the hints of its errors (see {@link CommandTerms})
 * @returns the exit code: `work`'s, or the one `exitCodeOf` gives for what it threw
 * @remarks Errors are printed by `reportError` (one line plus a hint; the stack only with
 * `--verbose`; never a secret). A service command's hints name the source its URL and credential
 * came from (`connectionSources`, the same decision `resolveConnection` makes). The first
 * Ctrl-C aborts `signal`; the handler is then removed, so a second Ctrl-C ends the process the
 * default way.
 * @example
 * ```ts
 * const code = await runAction(io, flags, async (context) => {
 *   printCabinet(context.printer, await runCabinet(flags, context), flags.json === true);
 *   return EXIT.ok;
 * }, { command: 'cabinet' });
 * ```
 */
export async function runAction(
  io: Io,
  flags: CommonFlags,
  work: (context: ActionContext) => Promise<number>,
  terms: CommandTerms = {},
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
    // Loaded only when a command fails: they read the client's error guard (its entry loads urql),
    // and runAction is part of the start-up that `labelkit --help` pays for.
    const [{ reportError }, { exitCodeOf }, { connectionSources }] = await Promise.all([
      import('./reportError.js'),
      import('./exitCodeOf.js'),
      import('./connection.js'),
    ]);
    const { service = terms.target === undefined, ...hints } = terms;
    const connection = service ? connectionSources(flags as ConnectionFlags, io.env) : undefined;
    reportError(error, printer, { verbose: flags.verbose === true, ...hints, ...(connection && { connection }) });
    return exitCodeOf(error);
  } finally {
    remove();
  }
}

/**
 * A command's commander action: runs `work` inside {@link runAction}'s error boundary and hands
 * the exit code to `done`. Every command of the CLI declares its action with it.
 *
 * @param io - the process
 * @param done - receives the exit code
 * @param terms - the command's name, flags and target, for the hints of its errors
 * @param work - the command: its flags, the context, then its positional arguments; resolves
 * with its exit code
 * @returns the function to pass to commander's `.action()`
 * @remarks Commander calls an action with the positional arguments, then the flags, then the
 * command itself; the flags are the next-to-last argument whatever the arguments are.
 * @example
 * ```ts
 * command.action(commandAction(io, done, { command: 'cabinet' }, async (flags: CabinetFlags & CommonFlags, context) => {
 *   printCabinet(context.printer, await runCabinet(flags, context), flags.json === true);
 *   return EXIT.ok;
 * }));
 * ```
 */
export function commandAction<F extends CommonFlags, A extends unknown[] = []>(
  io: Io,
  done: (code: number) => void,
  terms: CommandTerms,
  work: (flags: F, context: ActionContext, ...args: A) => Promise<number>,
): (...received: unknown[]) => Promise<void> {
  return async (...received) => {
    const flags = received[received.length - 2] as F;
    const args = received.slice(0, -2) as A;
    done(await runAction(io, flags, (context) => work(flags, context, ...args), terms));
  };
}
