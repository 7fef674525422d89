import type { Io } from '../../io.js';

/** An {@link Io} that may answer a question itself (tests do; the real process asks on the terminal). */
export type AskingIo = Io & { ask?: (question: string) => Promise<string> };

/**
 * Asks a yes/no question on the terminal.
 *
 * @param io - the process; its `ask`, when it has one, answers instead of the terminal
 * @param question - printed on stderr, without a line end
 * @param signal - Ctrl-C: counts as "no"
 * @returns true for `y` or `yes` (any case), false for anything else
 */
export async function askYes(io: AskingIo, question: string, signal: AbortSignal): Promise<boolean> {
  const answer = io.ask ? await io.ask(question) : await askOnTerminal(question, signal);
  return /^\s*y(es)?\s*$/i.test(answer ?? '');
}

async function askOnTerminal(question: string, signal: AbortSignal): Promise<string | undefined> {
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  const stop = new AbortController();
  // Ctrl-C while reading: readline takes the key itself; either way the answer is "no".
  rl.on('SIGINT', () => stop.abort());
  const onAbort = () => stop.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    return await rl.question(question, { signal: stop.signal });
  } catch {
    process.stderr.write('\n');
    return undefined;
  } finally {
    signal.removeEventListener('abort', onAbort);
    rl.close();
  }
}
