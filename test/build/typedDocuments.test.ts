// docs/typed-documents.md, "Use the typed documents with any client": its two blocks (plain @urql/core and
// graphql-request), run as printed in a child Node at the root of the checkout, where
// `labelkit/documents` is the built package (the workspace link; npm test builds before vitest),
// against the emulator over HTTP, in both schema generations.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { SCHEMA_GENERATIONS } from '../../src/shared/constants.js';
import { docSection } from '../support/docs.js';

const root = join(import.meta.dirname, '..', '..');
const section = docSection('Use the typed documents with any client').text;
const blocks = [...section.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]!);
const urqlBlock = blocks.find((b) => b.includes("from '@urql/core'"));
const requestBlock = blocks.find((b) => b.includes("from 'graphql-request'"));
// The script files live in the checkout so that `labelkit/…`, `@urql/core` and `graphql-request` resolve
// from its node_modules; a folder under node_modules/.cache is not part of the repository.
mkdirSync(join(root, 'node_modules', '.cache'), { recursive: true });
const scripts = mkdtempSync(join(root, 'node_modules', '.cache', 'typed-documents-'));
afterAll(() => rmSync(scripts, { recursive: true, force: true }));

/** Runs a README block as an ES module; resolves with its exit code and output. */
function run(name: string, source: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const file = join(scripts, `${name}.mjs`);
  writeFileSync(file, source);
  return new Promise((resolve) => {
    execFile(process.execPath, [file], { cwd: root, env: { PATH: process.env.PATH ?? '', ...env }, timeout: 20_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

/** The block with its documents taken from one generation's entry point. */
const inGeneration = (block: string, generation: string) =>
  generation === 'labels' ? block.replace("from 'labelkit/documents';", "from 'labelkit/documents/labels';") : block;

describe('the README blocks that use the typed documents', () => {
  it('are both in the README section, importing labelkit/documents', () => {
    expect(urqlBlock).toContain('preferGetMethod: false');
    expect(requestBlock).toBeDefined();
    for (const block of [urqlBlock!, requestBlock!]) expect(block).toContain("from 'labelkit/documents';");
    expect(section).toContain('labelkit/documents/labels');
  });
});

describe.each(SCHEMA_GENERATIONS)('the typed documents against the emulator speaking the %s schema', (generation) => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startEmulator({ schemaGeneration: generation });
  });
  afterAll(async () => {
    await emu?.close();
  });
  const env = () => ({ LABELKIT_URL: emu.url, LABELKIT_TOKEN: emu.token });
  // The demo project's one label set, as both blocks print it.
  const printed = "[ [ 'ENTITY', 'PERSON', 'ORGANIZATION', 'LOCATION', 'DATE' ] ]";
  const expectedOutput = (stdout: string) => expect(stdout.replace(/\s+/g, ' ').trim()).toBe(printed);

  it(`prints the label names with plain @urql/core (preferGetMethod: false) from ${generation === 'labels' ? 'labelkit/documents/labels' : 'labelkit/documents'}`, async () => {
    const result = await run(`urql-${generation}`, inGeneration(urqlBlock!, generation), env());
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expectedOutput(result.stdout);
  });

  it('prints the same with graphql-request', async () => {
    const result = await run(`request-${generation}`, inGeneration(requestBlock!, generation), env());
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expectedOutput(result.stdout);
  });

  // The README's "after the rename, import from labelkit/documents/labels instead" holds both ways:
  // each entry point's documents are refused by the other schema, naming the field it lacks.
  const other = generation === 'labels' ? 'tags' : 'labels';
  it(`is refused, naming the unknown field, when the block imports the documents of the ${other} schema`, async () => {
    const result = await run(`urql-${other}-on-${generation}`, inGeneration(urqlBlock!, other), env());
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(`Cannot query field "${other === 'tags' ? 'tagItems' : 'labelItems'}" on type "LabelSet"`);
  });

  it("is refused with 405 when urql is left at its default GET, as the README says", async () => {
    const withGet = inGeneration(urqlBlock!, generation).replace(/^\s*preferGetMethod: false,.*\n/m, '');
    expect(withGet).not.toContain('preferGetMethod');
    const result = await run(`urql-get-${generation}`, withGet, env());
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/405|Method Not Allowed/i);
  });
});
