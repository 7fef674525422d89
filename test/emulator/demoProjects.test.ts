import { describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { demoProjects } from '../../src/emulator/demoProject.js';
import { createEmulator, MAX_DEMO_PROJECTS } from '../../src/emulator/index.js';
import { argv, fakeIo } from '../support/fakeIo.js';

describe('demoProjects', () => {
  it('makes N numbered projects with the demo label set and a few lines each', () => {
    const projects = demoProjects(5);
    expect(projects.map((p) => p.id)).toEqual(['demo-project-1', 'demo-project-2', 'demo-project-3', 'demo-project-4', 'demo-project-5']);
    expect(projects.map((p) => p.documents.reduce((n, d) => n + d.lines.length, 0))).toEqual([3, 5, 4, 7, 3]);
    expect(projects.every((p) => p.labelSets[0]?.labels.map((l) => l.name).includes('PERSON'))).toBe(true);
  });

  it('throws a RangeError when the count is not an integer in range', () => {
    expect(() => demoProjects(-1)).toThrow(RangeError);
    expect(() => demoProjects(1.5)).toThrow(`demoProjects must be an integer from 0 to ${MAX_DEMO_PROJECTS}`);
  });
});

describe('createEmulator({ demoProjects })', () => {
  it('holds the numbered projects besides demo-project, each with label set ids of its own', async () => {
    const emulator = createEmulator({ demoProjects: 1000 });
    expect(emulator.store.projects.size).toBe(1001);
    const numbered = [...emulator.store.projects.values()].filter((p) => p.id !== 'demo-project');
    expect(new Set(numbered.flatMap((p) => p.labelSets.map((s) => s.id))).size).toBe(1000);
    expect(emulator.store.projects.get('demo-project-1000')?.lineCount).toBe(7);
    await emulator.close();
  });

  it('sets up 12,000 projects (a new label set id no longer scans every project: 10,000 took 136 s), and a set made afterwards gets an id of its own', async () => {
    const emulator = createEmulator({ demoProjects: 12_000 });
    const ids = new Set<string>();
    for (const p of emulator.store.projects.values()) for (const s of p.labelSets) ids.add(s.id);
    expect(ids.size).toBe(12_001);
    const made = emulator.store.createLabelSet('demo-project-7', { name: 'Sentiment', labels: [{ id: 'pos', name: 'POSITIVE', color: '#22c55e' }] });
    expect(ids.has(made.id)).toBe(false);
    // Found by its id again (the index follows the project's new label sets).
    expect(emulator.store.deleteLabelSet(made.id)).toBeDefined();
    expect(emulator.store.projects.get('demo-project-7')?.labelSets.map((s) => s.id)).not.toContain(made.id);
    await emulator.close();
  });
});

describe('labelkit emulator --demo-projects', () => {
  it('refuses a count that is not an integer from 0 to the maximum', async () => {
    const io = fakeIo();
    expect(await main(argv('emulator', '--port', '0', '--demo-projects', 'many'), io)).toBe(2);
    expect(io.err()).toContain(`--demo-projects: must be an integer from 0 to ${MAX_DEMO_PROJECTS}`);
  });

  it('serves the numbered projects and prints how to list them when --demo-projects is given', async () => {
    const io = fakeIo();
    const done = main(argv('emulator', '--port', '0', '--demo-projects', '3'), io);
    await vi.waitFor(() => expect(io.out()).toContain('Ctrl-C stops.'), { timeout: 10_000 });
    const url = /export LABELKIT_URL=(\S+)/.exec(io.out())![1]!;
    const token = /export LABELKIT_TOKEN=(\S+)/.exec(io.out())![1]!;
    const res = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ getCabinet(projectId: "demo-project-3", role: LABELER) { id } }' }),
    });
    expect(await res.json()).toEqual({ data: { getCabinet: { id: 'demo-project-3:labeler' } } });
    io.interrupt();
    expect(await done).toBe(0);
    expect(io.out()).toContain("  seq -f 'demo-project-%g' 3 > projects.txt");
  });
});
