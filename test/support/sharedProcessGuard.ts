// A setup file (vitest.config.ts `setupFiles`): test files of the `shared` project run one after
// another in the same worker process (isolate: false), so each must put back what it changes of
// the process. This makes a file that does not fail, instead of the next file failing for it:
// fake timers still installed after a test, a global still stubbed, or a process listener still
// registered when the file ends. Files that cannot share a process are listed in vitest.config.ts.
import { afterAll, afterEach, beforeAll, vi } from 'vitest';

/** Process events a test may listen to; each file must remove its listeners. */
const EVENTS = ['warning', 'unhandledRejection', 'uncaughtException', 'SIGINT', 'SIGTERM', 'exit', 'beforeExit'] as const;
/** Globals a test may stub (vi.stubGlobal) or replace; each file must put them back. */
const GLOBALS = ['fetch', 'Request', 'Response', 'Headers', 'crypto', 'navigator', 'document', 'window', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'AbortController'] as const;

const listenerCounts = () => Object.fromEntries(EVENTS.map((event) => [event, process.listenerCount(event)]));
const globalValues = () => new Map(GLOBALS.map((name) => [name, (globalThis as Record<string, unknown>)[name]]));

let listenersBefore: Record<string, number>;
let globalsBefore: Map<string, unknown>;

beforeAll(() => {
  listenersBefore = listenerCounts();
  globalsBefore = globalValues();
});

afterEach(() => {
  // Runs after the test file's own afterEach hooks (after-hooks run in reverse order).
  if (vi.isFakeTimers()) {
    vi.useRealTimers();
    throw new Error('this test left fake timers installed; call vi.useRealTimers() in afterEach (test files share a process: vitest.config.ts)');
  }
});

afterAll(() => {
  const problems: string[] = [];
  const listenersAfter = listenerCounts();
  for (const event of EVENTS) {
    if (listenersAfter[event] !== listenersBefore[event]) problems.push(`process '${event}' listeners: ${listenersBefore[event]} before the file, ${listenersAfter[event]} after`);
  }
  const globalsAfter = globalValues();
  for (const name of GLOBALS) if (globalsAfter.get(name) !== globalsBefore.get(name)) problems.push(`globalThis.${name} was replaced and not put back (vi.unstubAllGlobals())`);
  if (problems.length > 0) {
    throw new Error(`this test file changed the shared process and did not restore it (vitest.config.ts):\n  ${problems.join('\n  ')}`);
  }
});
