// The progress of the commands that read documents (export, eval, labels): off a terminal (a CI
// log), a line on stderr at least every 10 s, also while no document ends; on a terminal one line
// rewritten. Fake time: the 10 s pass without waiting.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDocumentProgress, PROGRESS_EVERY_MS } from '../../src/cli/progress.js';
import { fakeIo } from '../support/fakeIo.js';
import { useFakeClock } from '../support/fakeClock.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('document progress off a terminal', () => {
  it('prints a line at least every 10 s on stderr, with the latest count, until stopped', () => {
    useFakeClock();
    const io = fakeIo();
    const progress = createDocumentProgress(io);
    expect(PROGRESS_EVERY_MS).toBe(10_000);
    progress.onProgress(0, 1500);
    vi.advanceTimersByTime(9_999);
    expect(io.err()).toBe('');
    vi.advanceTimersByTime(1);
    expect(io.err()).toBe('reading documents 0/1500\n');
    progress.onProgress(110, 1500);
    // A slow service: no document ends for 20 s, and the log still shows the run is alive.
    vi.advanceTimersByTime(20_000);
    expect(io.err()).toBe('reading documents 0/1500\nreading documents 110/1500\nreading documents 110/1500\n');
    progress.stop();
    vi.advanceTimersByTime(60_000);
    expect(io.err().split('\n')).toHaveLength(4);
    expect(io.out()).toBe('');
  });

  it('prints nothing for a run shorter than 10 s', () => {
    useFakeClock();
    const io = fakeIo();
    const progress = createDocumentProgress(io);
    for (let done = 0; done <= 4; done++) progress.onProgress(done, 4);
    vi.advanceTimersByTime(3_000);
    progress.stop();
    vi.advanceTimersByTime(30_000);
    expect(io.err()).toBe('');
  });

  it('on a terminal: one line rewritten, cleared at the end, no timer lines', () => {
    useFakeClock();
    const io = fakeIo({}, { tty: true });
    const progress = createDocumentProgress(io);
    progress.onProgress(1, 2);
    vi.advanceTimersByTime(30_000);
    progress.onProgress(2, 2);
    progress.stop();
    expect(io.err()).toBe('\rreading documents 1/2\rreading documents 2/2\r\u001b[K');
  });
});
