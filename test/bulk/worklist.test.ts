import { describe, expect, it } from 'vitest';
import { replayJournal } from '../../src/bulk/journal.js';
import type { JournalRecord } from '../../src/bulk/journal.js';
import { buildWorklist } from '../../src/bulk/worklist.js';
import type { AutoLabelInput } from '../../src/client/index.js';

const at = '2026-01-01T00:00:00.000Z';
const config = { endpoint: 'https://model.example.com/', numberOfFilesPerRequest: 2, labelerEmail: 'a@example.com', role: null };
const input = (projectId: string): AutoLabelInput => ({
  projectId,
  labelerEmail: 'a@example.com',
  options: { numberOfFilesPerRequest: 2 },
  targetAPI: { endpoint: 'https://model.example.com/', secretKey: 'k-123456' },
});
const intent = (projectId: string, worker?: string, attempt?: number): JournalRecord => ({ type: 'intent', at, projectId, config, ...(attempt && { attempt }), ...(worker && { worker }) });

describe('buildWorklist', () => {
  // p1: intent of the live worker w1; p2: intent of the dead worker w2; p3: job started by w1 (alive);
  // p4: job started by w2 (dead); p5: unknown of w2 after an earlier failed attempt without numbers.
  const records: JournalRecord[] = [
    intent('p1', 'w1', 1),
    intent('p2', 'w2', 1),
    intent('p3', 'w1', 1),
    { type: 'started', at, projectId: 'p3', jobId: 'job-3', worker: 'w1' },
    intent('p4', 'w2', 1),
    { type: 'started', at, projectId: 'p4', jobId: 'job-4', worker: 'w2' },
    intent('p5'),
    { type: 'outcome', at, projectId: 'p5', outcome: 'not-started', errors: ['refused'] },
    intent('p5', 'w2'),
    { type: 'unknown', at, projectId: 'p5', error: 'connection reset', worker: 'w2' },
  ];
  const { projects } = replayJournal(records);
  const inputs = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6'].map(input);
  const alive = (w: string) => w === 'w1';

  it('counts attempts, also for intents written before claims had numbers', () => {
    expect([...projects].map(([p, s]) => [p, s.attempts, s.worker])).toEqual([
      ['p1', 1, 'w1'],
      ['p2', 1, 'w2'],
      ['p3', 1, 'w1'],
      ['p4', 1, 'w2'],
      ['p5', 2, 'w2'],
    ]);
  });

  it("leaves a live worker's projects to it, even with retry unknown, and waits for a dead worker's job", () => {
    const list = buildWorklist(inputs, projects, { retryUnknown: true }, alive);
    expect(list.map((e) => [e.projectId, e.action, e.attempt, e.heldBy])).toEqual([
      ['p1', 'skip', undefined, 'w1'],
      ['p2', 'start', 2, undefined], // retry unknown: only because w2 is dead
      ['p3', 'skip', undefined, 'w1'],
      ['p4', 'wait', undefined, undefined],
      ['p5', 'start', 3, undefined],
      ['p6', 'start', 1, undefined],
    ]);
    // What holds it, not a rule (issue 44 item 8: a row that explained the rule read like a problem).
    expect(list[0]!.reason).toBe('claimed by the live worker w1 (intent)');
  });

  it('reports a dead worker\'s intents as unknown and starts nothing again without retry unknown', () => {
    const list = buildWorklist(inputs, projects, {}, alive);
    expect(list.map((e) => e.action)).toEqual(['skip', 'skip', 'skip', 'wait', 'skip', 'start']);
    expect(list[1]!.heldBy).toBeUndefined();
    expect(list[1]!.reason).toContain('outcome unknown');
  });
});
