import type { Io } from './io.js';

/** How often, at most, off a terminal, a progress line is printed: a CI log shows the run is alive. */
export const PROGRESS_EVERY_MS = 10_000;

/**
 * Progress of reading documents (`eval`, `export`, `labels`): one line rewritten on a terminal's
 * stderr; off a terminal (a CI log) a line `reading documents DONE/TOTAL` on stderr every
 * {@link PROGRESS_EVERY_MS}, also while no document ends (a slow service), once the documents are
 * counted.
 *
 * @param io - the process
 * @returns `onProgress(done, total)`, and `stop()` to end the line (and the timer)
 */
export function createDocumentProgress(io: Io): { onProgress: (done: number, total: number) => void; stop: () => void } {
  let shown = false;
  let latest: { done: number; total: number } | undefined;
  let timer: ReturnType<typeof setInterval> | undefined;
  return {
    onProgress(done, total) {
      latest = { done, total };
      if (io.stderr.isTTY !== true) {
        timer ??= setInterval(() => latest && io.stderr.write(`reading documents ${latest.done}/${latest.total}\n`), PROGRESS_EVERY_MS);
        // A timer of its own must not keep the process alive after the command is done.
        timer.unref?.();
        return;
      }
      io.stderr.write(`\rreading documents ${done}/${total}`);
      shown = true;
    },
    stop() {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
      if (shown) io.stderr.write('\r\u001b[K');
      shown = false;
    },
  };
}
