// The "Label sets as code → From code" example, taken from docs/label-sets.md as printed (not
// copied) and run against the emulator: `labelkit-tools/label-sets` means src/labelSets/ here,
// and `labels.json` a file pulled into a temporary folder.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLabelingClient, getProjectLabelSets } from '../../src/client/index.js';
import { demoProjectId, startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { docSection } from '../support/docs.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The first `ts` block after the heading `## From code` of the label-sets page. */
async function fromCodeBlock(): Promise<string> {
  const section = docSection('Label sets as code').text;
  const from = section.slice(section.indexOf('\n## From code\n'));
  const block = /```ts\n([\s\S]*?)```/.exec(from);
  if (!block) throw new Error('docs/label-sets.md: no ts block under "Label sets as code → From code"');
  return block[1]!;
}

describe('the README example of label sets from code', () => {
  let emu: RunningEmulator;
  let dir: string;
  beforeAll(async () => {
    emu = await startEmulator({ demoProjects: 1 });
    dir = await mkdtemp(join(tmpdir(), 'labelkit-readme-label-sets-'));
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await emu?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('plans and applies a file as printed, with the spec and where that readLabelSetsFile returns', async () => {
    const projectId = demoProjectId(1);
    const client = createLabelingClient({ url: emu.url, token: emu.token });
    const [set] = await getProjectLabelSets(client, projectId, 'LABELER');
    client.close();
    const file = join(dir, 'labels.json');
    const labelItems = set!.labelItems.map((i) => ({ ...i, labelName: i.labelName === 'PERSON' ? 'PER' : i.labelName }));
    await writeFile(file, JSON.stringify({ projectId, role: 'LABELER', labelSets: [{ id: set!.id, index: 0, name: set!.name, labelItems }] }));

    const code = (await fromCodeBlock())
      .replace("'labelkit-tools/label-sets'", JSON.stringify(pathToFileURL(join(root, 'src/labelSets/index.ts')).href))
      .replace("'labels.json'", JSON.stringify(file));
    const script = join(dir, 'example.ts');
    await writeFile(script, code);
    vi.stubEnv('LABELKIT_URL', emu.url);
    vi.stubEnv('LABELKIT_TOKEN', emu.token);
    const printed: unknown[][] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void printed.push(args));
    try {
      await import(/* @vite-ignore */ pathToFileURL(script).href);
    } finally {
      log.mockRestore();
    }
    expect(printed.map((args) => args[0])).toContain('  ~ PER (id 11): name PERSON → PER');
    expect(printed.at(-1)).toEqual(['applied', 1, 'writes; ids made by the service:', []]);
    const after = createLabelingClient({ url: emu.url, token: emu.token });
    const [now] = await getProjectLabelSets(after, projectId, 'LABELER');
    after.close();
    expect(now!.labelItems.find((i) => i.id === '11')!.labelName).toBe('PER');
  });
});
