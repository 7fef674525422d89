import { vi } from 'vitest';

/** What was written past a command's Io while {@link captureStrayOutput} listened. */
export interface StrayOutput {
  /** Everything written to process.stdout, process.stderr and the console so far (read it before restore()). */
  text(): string;
  /** Stops listening and puts the real functions back. */
  restore(): void;
}

const asText = (value: unknown) => (typeof value === 'string' ? value : value instanceof Uint8Array ? Buffer.from(value).toString() : String(value));

/**
 * Records what is written to process.stdout, process.stderr and the console (log, info, warn,
 * error, debug) from now on, still letting it through.
 *
 * @returns the recording and a restore function (call it in `finally`: the spies sit on
 * process-wide objects, and other test files share this process)
 * @remarks For tests that run the CLI in process with an in-memory Io: a spawned binary's
 * stdout and stderr held everything it printed, while in process something printed past the Io
 * (a library's console.warn, a stray process.stderr.write) would go unseen without this.
 * @example
 * ```ts
 * const stray = captureStrayOutput();
 * try {
 *   await runMain(['cabinet', '--project', 'p'], env);
 *   expect(stray.text()).not.toContain(SECRET);
 * } finally {
 *   stray.restore();
 * }
 * ```
 */
export function captureStrayOutput(): StrayOutput {
  const spies = [
    vi.spyOn(process.stdout, 'write'),
    vi.spyOn(process.stderr, 'write'),
    ...(['log', 'info', 'warn', 'error', 'debug'] as const).map((method) => vi.spyOn(console, method)),
  ];
  return {
    text: () => spies.flatMap((spy) => spy.mock.calls.map((call) => (call as unknown[]).map(asText).join(' '))).join('\n'),
    restore: () => spies.forEach((spy) => spy.mockRestore()),
  };
}
