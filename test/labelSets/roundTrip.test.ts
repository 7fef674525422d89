// Label sets as code through the CLI's in-process entry, main(argv, io), against the emulator on
// 127.0.0.1 in both schema generations: pull, edit, plan, apply, plan again.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { createLabelingClient, getProjectLabelSets, updateLabelSet } from '../../src/client/index.js';
import { demoProjectId, startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { SCHEMA_GENERATIONS } from '../../src/shared/schemaGeneration.js';
import { argv, fakeIo } from '../support/fakeIo.js';
import type { FakeIo } from '../support/fakeIo.js';
import { startDroppingFront } from './droppingFront.js';
import type { DroppingFront } from './droppingFront.js';
import { saying } from '../support/saying.js';
import { storedLabelCounts } from '../support/storedLabelCounts.js';

interface PulledItem {
  id?: string;
  parentId?: string | null;
  labelName: string;
  color?: string | null;
  desc?: string | null;
}
interface Pulled {
  projectId: string;
  role: string;
  cabinetId?: string;
  labelSets: { id?: string; index: number; name: string; signature?: string | null; labelItems: PulledItem[] }[];
}

const ann = { labelerEmail: 'ann@example.com', role: 'LABELER' as const };
const span = (label: string, start: number, end: number) => ({ label, start_char: start, end_char: end, layer: 0 });

describe.each(SCHEMA_GENERATIONS)('label sets as code against the emulator speaking the %s schema', (schemaGeneration) => {
  let emu: RunningEmulator;
  let front: DroppingFront;
  let dir: string;
  let nextProject = 0;
  const posts: string[] = [];

  beforeAll(async () => {
    emu = await startEmulator({ schemaGeneration, demoProjects: 12, log: (line) => posts.push(line) });
    front = await startDroppingFront(emu.baseUrl);
    dir = await mkdtemp(join(tmpdir(), `labelkit-roundtrip-${schemaGeneration}-`));
  });
  afterAll(async () => {
    await front?.close();
    await emu?.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** A project of its own for each test, so that tests do not see each other's writes. */
  const freshProject = () => demoProjectId(++nextProject);
  const env = (url = emu.url) => ({ LABELKIT_URL: url, LABELKIT_TOKEN: emu.token });
  const run = async (args: string[], io: FakeIo = fakeIo(env())) => {
    const code = await main(argv(...args), io);
    return { code, out: io.out(), err: io.err() };
  };
  const path = (name: string) => join(dir, `${schemaGeneration}-${name}`);
  const pull = async (projectId: string, file: string): Promise<Pulled> => {
    const { code, out, err } = await run(['label-sets', '--project', projectId, '--role', 'LABELER', '--json']);
    expect(err).toBe('');
    expect(code).toBe(0);
    await writeFile(file, out);
    return JSON.parse(out) as Pulled;
  };
  const save = (file: string, value: Pulled) => writeFile(file, JSON.stringify(value, null, 2));
  const liveSets = async (projectId: string) => {
    const client = createLabelingClient({ url: emu.url, token: emu.token, schemaGeneration });
    try {
      return await getProjectLabelSets(client, projectId, 'LABELER');
    } finally {
      client.close();
    }
  };
  /** Labels per label id, as the store serves them (every copy). */
  const counts = (projectId: string) => Object.fromEntries(Object.entries(storedLabelCounts(emu.emulator.store, projectId)).map(([key, n]) => [key.split('/')[1]!, n]));
  const diffLines = (out: string) => out.split('\n').filter((l) => /^ {2}[-+~] /.test(l));

  it('pull, edit, plan shows exactly the edit, apply, then plan shows nothing (exit 0 with --exit-code); the renamed label keeps its id and applied labels', async () => {
    const project = freshProject();
    emu.emulator.store.setLineLabels(project, ann, emu.emulator.store.projects.get(project)!.documents[0]!.id, 0, [span('PERSON', 0, 4)]);
    const file = path('roundtrip.json');
    const pulled = await pull(project, file);
    expect(pulled).toMatchObject({ projectId: project, role: 'LABELER', labelSets: [{ index: 0, name: 'Entities' }] });
    const before = counts(project);
    expect(before['11']).toBe(1);

    expect((await run(['label-sets', 'plan', file, '--exit-code'])).code).toBe(0);
    const person = pulled.labelSets[0]!.labelItems.find((i) => i.labelName === 'PERSON')!;
    person.labelName = 'PER';
    await save(file, pulled);

    const plan = await run(['label-sets', 'plan', file, '--exit-code']);
    expect(plan.code).toBe(9);
    expect(diffLines(plan.out)).toEqual(['  ~ PER (id 11): name PERSON → PER']);
    expect(plan.out).toContain(`1 write, in this order:\n  1. replace the labels of label set 0 "Entities" (id ${pulled.labelSets[0]!.id}), 5 labels`);

    const apply = await run(['label-sets', 'apply', file, '--yes']);
    expect(apply.err).toContain('labelkit: done: replace the labels of label set 0 "Entities"');
    expect(apply.code).toBe(0);
    expect(apply.out).toContain(`Applied 1 write to ${project} (LABELER).`);

    const after = await run(['label-sets', 'plan', file, '--exit-code']);
    expect(after.out).toBe(`No changes: the 1 label set of ${project} (LABELER) is as the file says.\n`);
    expect(after.code).toBe(0);
    const [set] = await liveSets(project);
    expect(set!.labelItems.find((i) => i.id === '11')).toMatchObject({ labelName: 'PER', parentId: '10' });
    expect(counts(project)).toEqual(before);
  });

  it('refuses, with exit 10 and no write, a saved plan when the sets changed between plan --out and apply --plan', async () => {
    const project = freshProject();
    const file = path('stale.json');
    const pulled = await pull(project, file);
    pulled.labelSets[0]!.labelItems[0]!.color = '#000000';
    await save(file, pulled);
    const saved = path('stale-plan.json');
    const plan = await run(['label-sets', 'plan', file, '--out', saved]);
    expect(plan.code).toBe(0);
    expect(plan.err).toContain(`plan saved to ${saved}`);

    // Someone else's change, over HTTP, after the plan.
    const client = createLabelingClient({ url: emu.url, token: emu.token, schemaGeneration });
    const [live] = await getProjectLabelSets(client, project, 'LABELER');
    await updateLabelSet(client, { id: live!.id, projectId: project, name: 'Entities (edited)' });
    client.close();
    const between = await liveSets(project);
    const writes = posts.length;

    const apply = await run(['label-sets', 'apply', '--plan', saved, '--yes']);
    expect(apply.code).toBe(10);
    expect(apply.err).toContain('the label sets changed since the plan: re-plan (nothing was written)');
    expect(apply.err).toContain(`label set 0 "Entities" (id ${live!.id}) is now named "Entities (edited)"`);
    expect(await liveSets(project)).toEqual(between);
    expect(posts.slice(writes).filter((l) => /mutation|Create|Update|Append|Delete/i.test(l))).toEqual([]);
  });

  it('refuses a destructive step without --allow-destructive, naming the flag only, and shows how many applied labels it would remove', async () => {
    const project = freshProject();
    const documentId = emu.emulator.store.projects.get(project)!.documents[0]!.id;
    emu.emulator.store.setLineLabels(project, ann, documentId, 0, [span('DATE', 0, 2)]);
    emu.emulator.store.setLineLabels(project, ann, documentId, 1, [span('DATE', 0, 2), span('PERSON', 3, 5)]);
    const file = path('destructive.json');
    const pulled = await pull(project, file);
    pulled.labelSets[0]!.labelItems = pulled.labelSets[0]!.labelItems.filter((i) => i.labelName !== 'DATE');
    await save(file, pulled);

    const plan = await run(['label-sets', 'plan', file]);
    expect(diffLines(plan.out)).toEqual(['  - DATE (id 14): removed, 2 applied labels go']);
    const refused = await run(['label-sets', 'apply', file, '--yes']);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('refused: the plan would remove 2 applied labels');
    expect(refused.err).toContain('remove DATE (id 14) from label set 0 "Entities": 2 applied labels go');
    // The CLI names its flag only: the library's option is no word a CLI user can type.
    expect(refused.err).toContain('--allow-destructive');
    expect(refused.err).not.toContain('allowDestructive');
    expect((await liveSets(project))[0]!.labelItems.map((i) => i.id)).toContain('14');

    const allowed = await run(['label-sets', 'apply', file, '--yes', '--allow-destructive']);
    expect(allowed.code).toBe(0);
    expect((await liveSets(project))[0]!.labelItems.map((i) => i.id)).not.toContain('14');
    expect(counts(project)['14']).toBeUndefined();
    expect(counts(project)['11']).toBe(1);
  });

  it('counts the applied labels of a removal from the service\'s reads, with progress on stderr, only when a step removes labels; --no-count-labels skips it', async () => {
    const project = freshProject();
    const documentId = emu.emulator.store.projects.get(project)!.documents[0]!.id;
    emu.emulator.store.setLineLabels(project, ann, documentId, 0, [span('DATE', 0, 2)]);
    emu.emulator.store.setLineLabels(project, { labelerEmail: 'rex@example.com', role: 'REVIEWER' }, documentId, 0, [span('DATE', 0, 2), span('DATE', 3, 5)]);
    const file = path('counted.json');
    const pulled = await pull(project, file);
    const documents = emu.emulator.store.projects.get(project)!.documents.length;
    const viaFront = (args: string[]) => run(args, fakeIo(env(front.url)));
    let from = front.sent.length;

    // No removal: nothing is counted.
    pulled.labelSets[0]!.labelItems.find((i) => i.labelName === 'PERSON')!.labelName = 'PER';
    await save(file, pulled);
    const renaming = await viaFront(['label-sets', 'plan', file]);
    expect(renaming.code).toBe(0);
    expect(renaming.err).toBe('');
    const countReads = (names: string[]) => names.filter((name) => name === 'GetProjectCabinets' || name === 'GetLabelsPaginated');
    expect(front.sent.slice(from).length).toBeGreaterThan(0);
    expect(countReads(front.sent.slice(from))).toEqual([]);

    // A removal: every copy is read (ann's and the reviewer's), and the count says so on stderr.
    pulled.labelSets[0]!.labelItems = pulled.labelSets[0]!.labelItems.filter((i) => i.labelName !== 'DATE');
    await save(file, pulled);
    from = front.sent.length;
    const removing = await viaFront(['label-sets', 'plan', file]);
    expect(diffLines(removing.out)).toContain('  - DATE (id 14): removed, 3 applied labels go');
    expect(countReads(front.sent.slice(from))).toEqual(['GetProjectCabinets', ...Array<string>(documents * 2).fill('GetLabelsPaginated')]);
    expect(removing.err).toBe(
      `labelkit: counting the applied labels of what the plan removes: reading every label of ${documents * 2} documents in 2 copies of the project (--no-count-labels skips this)\n` +
        `labelkit: counted 3 labels in ${documents * 2} documents\n`,
    );

    // Skipped: the count is unknown, and apply refuses it without --allow-destructive.
    const skipped = await run(['label-sets', 'plan', file, '--no-count-labels']);
    expect(diffLines(skipped.out)).toContain('  - DATE (id 14): removed, an unknown number of applied labels go');
    expect(skipped.err).toBe('');
    const refused = await run(['label-sets', 'apply', file, '--yes', '--no-count-labels']);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('an unknown number of applied labels');
    expect((await liveSets(project))[0]!.labelItems.map((i) => i.id)).toContain('14');

    // Apply counts at the plan and again right before writing.
    const refusedCounted = await run(['label-sets', 'apply', file, '--yes']);
    expect(refusedCounted.code).toBe(2);
    expect(refusedCounted.err).toContain('refused: the plan would remove 3 applied labels');
    const applied = await run(['label-sets', 'apply', file, '--yes', '--allow-destructive']);
    expect(applied.code).toBe(0);
    expect(applied.err.match(/^labelkit: counting( again)? the applied labels/gm)).toEqual(['labelkit: counting the applied labels', 'labelkit: counting again the applied labels']);
    expect((await liveSets(project))[0]!.labelItems.map((i) => i.id)).not.toContain('14');
  });

  it('appends a new top-level label and reports the id the service made; the next plan is empty', async () => {
    const project = freshProject();
    const file = path('append.json');
    const pulled = await pull(project, file);
    pulled.labelSets[0]!.labelItems.push({ labelName: 'EVENT', color: '#8b5cf6' });
    await save(file, pulled);
    const plan = await run(['label-sets', 'plan', file]);
    expect(diffLines(plan.out)).toEqual(['  + EVENT (id made by the service)']);
    const apply = await run(['label-sets', 'apply', file, '--yes']);
    expect(apply.code).toBe(0);
    const made = (await liveSets(project))[0]!.labelItems.find((i) => i.labelName === 'EVENT')!;
    expect(apply.out).toContain(`"EVENT" in label set 0 (id ${pulled.labelSets[0]!.id}) got id ${made.id} from the service`);
    expect((await run(['label-sets', 'plan', file, '--exit-code'])).code).toBe(0);
  });

  it('applies a YAML file with a new set and a re-parented label, asking on a terminal', async () => {
    const project = freshProject();
    const pulled = await pull(project, path('yaml-source.json'));
    const setId = pulled.labelSets[0]!.id!;
    const yaml = [
      `projectId: ${project}`,
      'role: LABELER',
      'labelSets:',
      `  - id: "${setId}"`,
      '    index: 0',
      '    name: Entities',
      '    labelItems:',
      '      - { id: "10", labelName: ENTITY, color: "#6b7280" }',
      '      - { id: "11", parentId: "10", labelName: PERSON }',
      '      - { id: "12", parentId: "10", labelName: ORGANIZATION }',
      '      - { id: "13", labelName: LOCATION }',
      '      - { id: "14", labelName: DATE }',
      '  - index: 1',
      '    name: Sentiment',
      '    labelItems:',
      '      - { labelName: Positive, color: "#22c55e" }',
      '      - { labelName: Negative, color: "#ef4444" }',
    ].join('\n');
    const file = path('sets.yaml');
    await writeFile(file, yaml);
    const asked: string[] = [];
    const io = Object.assign(fakeIo({ ...env(), NO_COLOR: '1' }, { tty: true }), { ask: async (q: string) => (asked.push(q), 'yes') });
    const apply = await run(['label-sets', 'apply', file], io);
    expect(apply.err.split('\n').filter(Boolean)).toEqual([
      `labelkit: done: replace the labels of label set 0 "Entities" (id ${setId}), 5 labels`,
      'labelkit: done: create label set 1 "Sentiment" with 2 labels',
    ]);
    expect(asked).toEqual([`Apply 2 writes to ${project} (LABELER)? [y/N] `]);
    expect(diffLines(apply.out)).toEqual(['  ~ LOCATION (id 13): parent ENTITY → (top level)', '  + Positive (id positive)', '  + Negative (id negative)']);
    expect(apply.code).toBe(0);
    const sets = await liveSets(project);
    expect(sets.map((s) => [s.index, s.name, s.labelItems.map((i) => i.labelName)])).toEqual([
      [0, 'Entities', ['ENTITY', 'PERSON', 'ORGANIZATION', 'LOCATION', 'DATE']],
      [1, 'Sentiment', ['Positive', 'Negative']],
    ]);
    expect(apply.out).toContain(`label set 1 "Sentiment" was created with id ${sets[1]!.id}`);
    expect((await run(['label-sets', 'plan', file, '--exit-code'])).code).toBe(0);
  });

  it('writes nothing when the answer on a terminal is not yes, and asks for --yes when stdin is not a terminal', async () => {
    const project = freshProject();
    const file = path('declined.json');
    const pulled = await pull(project, file);
    pulled.labelSets[0]!.name = 'Renamed';
    await save(file, pulled);
    const io = Object.assign(fakeIo(env(), { tty: true }), { ask: async () => 'n' });
    const declined = await run(['label-sets', 'apply', file], io);
    expect(declined.code).toBe(0);
    expect(declined.err).toContain('labelkit: nothing applied (the answer was not yes); nothing was written');
    expect(declined.err).not.toMatch(/unexpected|error/i);
    const piped = await run(['label-sets', 'apply', file], fakeIo(env(), { stdin: '' }));
    expect(piped.code).toBe(2);
    expect(piped.err).toContain('--yes: required when stdin is not a terminal');
    expect((await liveSets(project))[0]!.name).toBe('Entities');
  });

  it('reports a write whose answer was lost as unknown, sends it once, and the next plan shows what happened', async () => {
    const project = freshProject();
    const file = path('lost.json');
    const pulled = await pull(project, file);
    pulled.labelSets[0]!.labelItems[0]!.labelName = 'THING';
    await save(file, pulled);
    front.dropAnswerOf.add('UpdateProjectLabelSet');
    const sentBefore = front.sent.length;
    const lost = await run(['label-sets', 'apply', file, '--yes'], fakeIo(env(front.url)));
    front.dropAnswerOf.clear();
    expect(lost.code).toBe(4);
    expect(lost.err).toMatch(/"replace the labels of label set 0 "Entities" \(id \d+\), 5 labels" was sent and its answer was lost/);
    expect(lost.err).toMatch(/may or may not have happened.*not retried/);
    expect(lost.err).not.toMatch(/could not reach|apply again/);
    expect(front.sent.slice(sentBefore).filter((name) => /update/i.test(name))).toHaveLength(1);
    // The write did reach the service: the next plan has nothing left to do.
    expect((await run(['label-sets', 'plan', file, '--exit-code'])).code).toBe(0);
  });

  it('lists every problem of a bad file with its file:line, and sends nothing', async () => {
    const file = path('bad.json');
    await writeFile(
      file,
      JSON.stringify(
        {
          projectId: freshProject(),
          role: 'LABELER',
          labelSets: [{ index: 0, name: 'E', labelItems: [{ id: 'a', labelName: 'A', color: 'red' }, { id: 'b', parentId: 'zz', labelName: 'B' }, { id: 'c', labelName: 'a' }] }],
        },
        null,
        2,
      ),
    );
    const seen = posts.length;
    const bad = await run(['label-sets', 'plan', file]);
    expect(bad.code).toBe(2);
    expect(bad.err.split('\n')).toEqual([
      'labelkit: invalid input, 3 problems (nothing was sent):',
      saying(`  ${file}:12: labelSets[0].labelItems[0].color:`, '#rrggbb', '"red"'),
      `  ${file}:16: labelSets[0].labelItems[1].parentId: "zz" is not the id of a label of this set`,
      saying(`  ${file}:21: labelSets[0].labelItems[2].labelName:`, '"a"', 'labelItems[0] ("A")', 'case-insensitively'),
      'hint: labelkit label-sets plan --help lists every flag and variable',
      '',
    ]);
    const yamlFile = path('bad.yaml');
    await writeFile(yamlFile, 'labelSets:\n  - index: 9\n    name: E\n    labelItems:\n      - labelName: A\n        color: #ff0000\n');
    const badYaml = await run(['label-sets', 'plan', yamlFile, '--role', 'boss']);
    expect(badYaml.code).toBe(2);
    expect(badYaml.err).toContain(`${yamlFile}:2: labelSets[0].index: must be an integer from 0 to 4 (got 9)`);
    expect(badYaml.err).toContain(`${yamlFile}:6: labelSets[0].labelItems[0].color: write the colour in quotes, color: "#ff0000"`);
    expect(badYaml.err).toContain('--role: must be LABELER or REVIEWER');
    expect(posts.length).toBe(seen);
  });

  it('never prints the access token, also with --verbose and when the token is refused', async () => {
    const project = freshProject();
    const file = path('secret.json');
    const pulled = await pull(project, file);
    pulled.labelSets[0]!.name = 'Secretive';
    await save(file, pulled);
    const refused = await run(['label-sets', 'apply', file, '--yes', '--verbose'], fakeIo({ LABELKIT_URL: emu.url, LABELKIT_TOKEN: 'SENTINEL-not-the-token-5c1e' }));
    expect(refused.code).toBe(3);
    expect(refused.out + refused.err).not.toContain('SENTINEL-not-the-token-5c1e');
    const applied = await run(['label-sets', 'apply', file, '--yes', '--verbose']);
    expect(applied.code).toBe(0);
    const plan = await run(['label-sets', 'plan', file, '--json', '--verbose']);
    expect(applied.out + applied.err + plan.out + plan.err).not.toContain(emu.token);
  });

  it('prints the plan as JSON with --json, and a saved plan applies', async () => {
    const project = freshProject();
    const file = path('json.json');
    const pulled = await pull(project, file);
    pulled.labelSets[0]!.name = 'Named entities';
    await save(file, pulled);
    const saved = path('json-plan.json');
    const json = await run(['label-sets', 'plan', file, '--json', '--out', saved]);
    const plan = JSON.parse(json.out) as { writes: unknown[]; steps: { kind: string }[] };
    expect(plan.steps.map((s) => s.kind)).toEqual(['rename-set']);
    // The file saves what was wanted and what it was planned against; apply computes the rest again.
    const { steps: _steps, writes: _writes, warnings: _warnings, ...wanted } = plan as Record<string, unknown>;
    expect(JSON.parse(await readFile(saved, 'utf8'))).toEqual(wanted);
    expect(Object.keys(wanted).sort()).toEqual(['against', 'desired', 'format', 'projectId', 'role', 'version']);
    expect((await run(['label-sets', 'apply', '--plan', saved, '--yes'])).code).toBe(0);
    expect((await liveSets(project))[0]!.name).toBe('Named entities');
  });
});
