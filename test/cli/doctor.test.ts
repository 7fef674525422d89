// `labelkit doctor` on the fixture apps of test/fixtures/doctor/: each broken set-up gives exactly
// its one finding and exit 13; the healthy one exits 0. Each fixture is copied to a folder whose
// node_modules link this checkout's built labelkit, TypeScript and @types/node (no install, no
// network), and the doctor runs in process, so that one TypeScript is loaded for all of them.
import { cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODEGEN_OVERRIDES } from '../../src/cli/commands/doctor/runner.js';
import { main } from '../../src/cli/main.js';
import { startMockServer } from '../support/mockServer.js';
import type { MockServer } from '../support/mockServer.js';
import { projectSdl } from '../support/mockServer.js';
import { codeBlocks, docSection } from '../support/docs.js';
import { useTempDirs } from '../support/tempDirs.js';
import { argv, fakeIo } from '../support/fakeIo.js';

const root = join(import.meta.dirname, '..', '..');
const fixtures = join(root, 'test', 'fixtures', 'doctor');
const tempDir = useTempDirs();

/** A fixture in a folder of its own, its node_modules linked (TypeScript 5.4.5 where the fixture says so). */
function fixture(name: string): string {
  const dir = join(tempDir(`labelkit-doctor-${name}-`), name);
  cpSync(join(fixtures, name), dir, { recursive: true });
  mkdirSync(join(dir, 'node_modules', '@types'), { recursive: true });
  symlinkSync(join(root, 'packages', 'labelkit'), join(dir, 'node_modules', 'labelkit'));
  symlinkSync(join(root, 'node_modules', '@types', 'node'), join(dir, 'node_modules', '@types', 'node'));
  const wanted = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies.typescript;
  if (wanted === '5.4.5') {
    // The version is what doctor reads; the old compiler itself is not needed for that finding.
    mkdirSync(join(dir, 'node_modules', 'typescript'));
    writeFileSync(join(dir, 'node_modules', 'typescript', 'package.json'), JSON.stringify({ name: 'typescript', version: '5.4.5' }));
  } else symlinkSync(join(root, 'node_modules', 'typescript'), join(dir, 'node_modules', 'typescript'));
  return dir;
}

async function doctor(dir: string, ...args: string[]) {
  const io = fakeIo({ LABELKIT_TOKEN: 't0k' });
  const code = await main(argv('doctor', '--dir', dir, ...args), io);
  return { code, lines: io.out().split('\n').filter(Boolean), err: io.err() };
}

/** Each broken fixture and the start of its one finding. */
const BROKEN: Record<string, string> = {
  'app-engines': `node: Node ${process.versions.node} does not satisfy the app's engines.node ">=22.12"`,
  'commonjs-old-typescript': 'typescript: TypeScript 5.4.5 cannot compile an import of labelkit (an ES module) in a CommonJS project',
  'tsc-init-commonjs': 'tsconfig: verbatimModuleSyntax is true (as tsc --init writes it) in a CommonJS project',
  'tsc-init-types': 'tsconfig: types leaves out "node" (tsc --init writes [])',
  'module-node10': 'tsconfig: moduleResolution node10 does not read package.json "exports"',
  'exports-off': "types: labelkit/documents types as any with this tsconfig: TS2307 Cannot find module 'labelkit/documents'",
  'codegen-compiled': 'tsconfig: tsc compiles codegen.ts into codegen.js, which graphql-codegen loads first',
  'codegen-js-beside': 'codegen: codegen.js stands beside codegen.ts: graphql-codegen loads codegen.js first',
  'missing-overrides': 'codegen: package.json "overrides" lacks @whatwg-node/promise-helpers 1.3.2, ',
  'tag-items': 'documents: src/names.query.graphql:4:5 query LabelSetNames: breaks on the renamed schema: Cannot query field "tagItems" on type "LabelSet".',
  deprecated: 'documents: src/names.query.graphql:4:5 query JobProgress: deprecated on the service: The field Job.progress is deprecated. Use percent.',
};

// Each run compiles a probe with TypeScript: up to tens of seconds on a loaded two-core machine.
describe('labelkit doctor on the fixture apps', { timeout: 120_000 }, () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startMockServer({ typeDefs: projectSdl.replace(/^(\s+progress: Int!?)$/m, '$1 @deprecated(reason: "Use percent.")'), validTokens: ['t0k'] });
  });
  afterAll(async () => {
    await server.close();
  });

  it('has a fixture for each finding, and the healthy one', () => {
    expect(readdirSync(fixtures).sort()).toEqual([...Object.keys(BROKEN), 'healthy'].sort());
  });

  it('exits 0 on the healthy app, with --url too', async () => {
    const dir = fixture('healthy');
    const r = await doctor(dir, '--url', server.url);
    expect([r.code, r.lines, r.err]).toEqual([0, [`doctor: healthy (7 checks) in ${dir}`], '']);
  });

  it.each(Object.keys(BROKEN))('gives exactly its one finding, with its fix, and exits 13 (%s)', async (name) => {
    const dir = fixture(name);
    const r = await doctor(dir, ...(name === 'deprecated' ? ['--url', server.url] : []));
    expect(r.err).toBe('');
    expect(r.lines).toHaveLength(2);
    expect(r.lines[0]!.startsWith(BROKEN[name]!), r.lines[0]).toBe(true);
    expect(r.lines[0]).toMatch(/ \(fix: .+\)$/);
    expect(r.lines[1]).toBe(`doctor: 1 finding in ${dir}`);
    expect(r.code).toBe(13);
  });

  it('reports an unreachable service and a model endpoint that breaks the contract, as JSON too', async () => {
    const dir = fixture('healthy');
    const io = fakeIo({ LABELKIT_TOKEN: 'wrong', LABELKIT_MODEL_SECRET: 'model-secret' });
    const code = await main(argv('doctor', '--dir', dir, '--url', server.url, '--model', `${server.url.replace('/graphql', '')}/not-a-model`, '--json'), io);
    const result = JSON.parse(io.out()) as { healthy: boolean; findings: { check: string }[] };
    expect([code, result.healthy]).toEqual([13, false]);
    expect(result.findings.map((f) => f.check)).toContain('service');
    expect(result.findings.map((f) => f.check)).toContain('model');
  });

  it("checks the overrides docs/typed-documents.md prints, which are this repository's own", () => {
    const block = codeBlocks(docSection('Your own operations').text).find((b) => b.lang === 'json' && b.text.includes('"overrides"'))!.text;
    expect(JSON.parse(`{${block}}`)).toEqual({ overrides: CODEGEN_OVERRIDES });
    const own = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { overrides: Record<string, string> }).overrides;
    expect(own).toEqual(CODEGEN_OVERRIDES);
  });
});
