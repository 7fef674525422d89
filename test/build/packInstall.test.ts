// Both packages as a user installs them: `npm pack`, then `npm install` of the tarballs into empty
// folders (offline where npm's cache allows: --prefer-offline, nothing beyond what `npm ci` fetched;
// the few extra packages of the consumer projects are packed from this checkout's node_modules).
// Slow (several npm runs and three tsc runs): the one test file that packs. The packs run at once,
// then the four projects' installs at once (npm's cache is safe for that), in the first beforeAll.
// npm test builds before vitest runs; by hand, run `npm run build` first.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import { VERSION } from '../../src/shared/constants.js';

const root = join(import.meta.dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'labelkit-pack-'));
const bin = (name: string) => join(root, 'node_modules', '.bin', name);

interface Run {
  code: number;
  stdout: string;
  /** stdout and stderr together (npm warns on stderr). */
  output: string;
}

/** Runs a command; resolves with its exit code and output. */
function exec(file: string, args: string[], cwd: string): Promise<Run> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd, timeout: 180_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, output: `${stdout}${stderr}` }),
    );
  });
}

/** An empty project folder (ESM, private) under the test's temporary folder. */
function project(name: string): string {
  const dir = join(work, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }));
  return dir;
}

const npmInstall = (dir: string, specs: string[]) => exec('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', ...specs], dir);

/** Installed packages, from the lockfile npm wrote (every entry but the project itself). */
const installedPackages = (dir: string) =>
  Object.keys((JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')) as { packages: Record<string, unknown> }).packages).filter((k) => k !== '');

/** Bytes of every file under a folder. */
function bytesUnder(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .reduce((sum, e) => sum + statSync(join(e.parentPath, e.name)).size, 0);
}

let tarballs: { labelkit: string; tools: string; extras: string[] };
let clientDir: string;
let clientInstall: Run;
let toolsDir: string;
let toolsInstall: Run;
let typedAppDir: string;
let typedAppInstall: Run;
let ownOperationsDir: string;
let ownOperationsInstall: Run;

beforeAll(async () => {
  // The consumer projects' own dependencies, packed from the copies `npm ci` installed here.
  const extras = ['@urql/core', 'graphql-request', 'graphql', '@graphql-typed-document-node/core'].map((name) => join(root, 'node_modules', name));
  const [packed, extraPack] = await Promise.all([
    exec('npm', ['pack', '--json', '-w', 'labelkit', '-w', 'labelkit-tools', '--pack-destination', work], root),
    exec('npm', ['pack', '--json', '--pack-destination', work, ...extras], root),
  ]);
  expect(packed.code, packed.output).toBe(0);
  expect(extraPack.code, extraPack.output).toBe(0);
  const files = (JSON.parse(extraPack.stdout) as { filename: string }[]).map((f) => join(work, f.filename));
  tarballs = { labelkit: join(work, `labelkit-${VERSION}.tgz`), tools: join(work, `labelkit-tools-${VERSION}.tgz`), extras: files };

  clientDir = project('client-only');
  toolsDir = project('with-tools');
  typedAppDir = project('typed-app');
  ownOperationsDir = project('own-operations');
  [clientInstall, toolsInstall, typedAppInstall, ownOperationsInstall] = await Promise.all([
    npmInstall(clientDir, [tarballs.labelkit]),
    npmInstall(toolsDir, [tarballs.labelkit, tarballs.tools]),
    npmInstall(typedAppDir, [tarballs.labelkit, tarballs.tools, ...tarballs.extras]),
    npmInstall(ownOperationsDir, [tarballs.labelkit, ...tarballs.extras]),
  ]);
}, 300_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('npm install of the labelkit tarball alone', () => {
  it('installs at most 6 packages and 3 MB, without graphql and without an engine warning', () => {
    expect(clientInstall.code, clientInstall.output).toBe(0);
    expect(clientInstall.output).not.toContain('EBADENGINE');
    const packages = installedPackages(clientDir);
    expect(packages.length, packages.join(', ')).toBeLessThanOrEqual(6);
    expect(packages).not.toContain('node_modules/graphql');
    expect(packages).not.toContain('node_modules/@graphql-typed-document-node/core');
    expect(bytesUnder(join(clientDir, 'node_modules'))).toBeLessThanOrEqual(3_000_000);
  });

  it('ships no source map, no test and no source file', () => {
    const files = readdirSync(join(clientDir, 'node_modules', 'labelkit'), { recursive: true }).map(String);
    expect(files.filter((f) => /\.map$|(?<!\.d)\.ts$|^test\//.test(f))).toEqual([]);
  });
});

describe('npm install of both tarballs', () => {
  it('prints no engine warning and installs the labelkit command once', async () => {
    expect(toolsInstall.code, toolsInstall.output).toBe(0);
    expect(toolsInstall.output).not.toContain('EBADENGINE');
    const version = await exec(join(toolsDir, 'node_modules', '.bin', 'labelkit'), ['--version'], toolsDir);
    expect([version.code, version.stdout]).toEqual([0, `${VERSION}\n`]);
    const tools = readdirSync(join(toolsDir, 'node_modules', 'labelkit-tools'), { recursive: true }).map(String);
    // One CLI: the bin shim and its start-up chunk, no second copy (the former package had two).
    expect(tools.filter((f) => f.startsWith('bin/'))).toEqual(['bin/labelkit.js']);
    expect(tools.filter((f) => /(?:^|\/)(?:cli|main)\.js$/.test(f))).toEqual(['dist/cli.js']);
  });

  it("runs the README's complete example against an emulator started from labelkit-tools", async () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('### A complete run against the local emulator'));
    const example = /```js\n([\s\S]*?)```/.exec(section)![1]!;
    expect(example).toContain("from 'labelkit-tools/emulator'");
    writeFileSync(join(toolsDir, 'try.mjs'), example);
    const run = await exec(process.execPath, ['try.mjs'], toolsDir);
    expect(run.code, run.output).toBe(0);
    const lines = run.output.trim().split('\n');
    expect(lines[0]).toBe("ENTITY [ 'PERSON', 'ORGANIZATION', 'LOCATION' ]");
    expect(lines.at(-2)).toBe('DELIVERED 100%');
    expect(lines.at(-1)).toBe('delivered');
  });

  it("loads the PostgreSQL journal's driver (bundled, no pg package installed) only when it opens", async () => {
    expect(existsSync(join(toolsDir, 'node_modules', 'pg'))).toBe(false);
    const source = [
      "import { openPostgresJournal } from 'labelkit-tools/bulk';",
      "const journal = openPostgresJournal({ url: 'postgres://someone:SENTINEL-pack-pass@127.0.0.1:1/db', name: 'packed', retryMs: 0 });",
      'await journal.open().then(() => console.log("opened?"), (e) => console.log(e.code, e.message));',
    ].join('\n');
    writeFileSync(join(toolsDir, 'journal.mjs'), source);
    const run = await exec(process.execPath, ['journal.mjs'], toolsDir);
    expect(run.code, run.output).toBe(0);
    // The driver ran: it tried the server, which is not there (exit 4 in the CLI), and said so without the password.
    expect(run.output).toContain('NETWORK');
    expect(run.output).toContain('ECONNREFUSED');
    expect(run.output).not.toContain('SENTINEL-pack-pass');
  });

  it('serves the GraphiQL page and schema.graphql from the installed emulator', async () => {
    const source = [
      "import { startEmulator } from 'labelkit-tools/emulator';",
      'const emu = await startEmulator();',
      "const page = await fetch(emu.url, { headers: { accept: 'text/html' } });",
      'console.log(page.status, (await page.text()).includes("GraphiQL"));',
      "const answer = await fetch(emu.url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${emu.token}` }, body: JSON.stringify({ query: '{ __type(name: \"LabelSet\") { fields { name } } }' }) });",
      'console.log(JSON.stringify((await answer.json()).data.__type.fields.map((f) => f.name)));',
      'await emu.close();',
    ].join('\n');
    writeFileSync(join(toolsDir, 'graphiql.mjs'), source);
    const run = await exec(process.execPath, ['graphiql.mjs'], toolsDir);
    expect(run.code, run.output).toBe(0);
    const [page, fields] = run.output.trim().split('\n');
    expect(page).toBe('200 true');
    expect(JSON.parse(fields!)).toEqual(expect.arrayContaining(['tagItems', 'signature']));
  });
});

describe('a strict TypeScript project that uses the installed documents', () => {
  let appDir: string;
  beforeAll(() => {
    appDir = typedAppDir;
    expect(typedAppInstall.code, typedAppInstall.output).toBe(0);
    mkdirSync(join(appDir, 'src'));
    writeFileSync(join(appDir, 'src', 'app.ts'), TYPED_APP);
  });

  it.each([
    ['node16', { module: 'node16', moduleResolution: 'node16' }],
    ['bundler', { module: 'esnext', moduleResolution: 'bundler' }],
  ])('type-checks with moduleResolution %s, inferring results with @urql/core and graphql-request', async (name, resolution) => {
    // Each wrong variable carries a @ts-expect-error: tsc fails ("Unused '@ts-expect-error'") if it is accepted.
    const tsconfig = {
      compilerOptions: { ...resolution, target: 'ES2022', lib: ['ES2022', 'DOM'], strict: true, noEmit: true, skipLibCheck: false, types: [], noUnusedLocals: true },
      include: ['src'],
    };
    writeFileSync(join(appDir, `tsconfig.${name}.json`), JSON.stringify(tsconfig));
    const tsc = await exec(bin('tsc'), ['-p', `tsconfig.${name}.json`], appDir);
    expect(tsc.output).toBe('');
    expect(tsc.code).toBe(0);
  }, 120_000);

  it('bundles the installed client for the browser without any module of graphql and without node: imports', async () => {
    const result = await build({
      stdin: {
        contents: [
          "import { createLabelingClient, isLabelkitError } from 'labelkit';",
          "import { GetCabinetDocument } from 'labelkit/documents';",
          "import { GetCabinetLabelSetsByIdDocument } from 'labelkit/documents/labels';",
          'export const app = { createLabelingClient, isLabelkitError, GetCabinetDocument, GetCabinetLabelSetsByIdDocument };',
        ].join('\n'),
        resolveDir: appDir,
        loader: 'js',
      },
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    // graphql is installed in this project (graphql-request needs it): the client must not reach it.
    expect(inputs.some((p) => p.includes('node_modules/labelkit/dist/'))).toBe(true);
    expect(inputs.some((p) => p.includes('node_modules/@urql/core/'))).toBe(true);
    expect(inputs.filter((p) => /node_modules\/graphql\//.test(p))).toEqual([]);
    expect(inputs.filter((p) => p.startsWith('node:'))).toEqual([]);
    expect(Object.values(result.metafile.outputs).flatMap((o) => o.imports.map((i) => i.path))).toEqual([]);
  });
});

/** The consumer project's code: result types inferred from the documents by two other clients. */
const TYPED_APP = `import { Client, fetchExchange } from '@urql/core';
import { GraphQLClient } from 'graphql-request';
import { createLabelingClient } from 'labelkit';
import type { LabelSet } from 'labelkit';
import { GetCabinetDocument, GetCabinetLabelSetsByIdDocument, GetJobsDocument } from 'labelkit/documents';
import * as renamed from 'labelkit/documents/labels';
import type { AutoLabelManyResult } from 'labelkit-tools/bulk';
import type { RunningEmulator } from 'labelkit-tools/emulator';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function expectType<T extends true>(proof: T): T {
  return proof;
}

export async function withUrql(url: string, token: string): Promise<string[]> {
  const client = new Client({ url, exchanges: [fetchExchange], preferGetMethod: false, fetchOptions: { headers: { authorization: \`Bearer \${token}\` } } });
  const cabinet = await client.query(GetCabinetDocument, { projectId: 'demo-project', role: 'LABELER' }).toPromise();
  expectType<Equal<typeof cabinet.data, { getCabinet: { id: string } } | undefined>>(true);
  // @ts-expect-error role is a Role: LABELER or REVIEWER
  await client.query(GetCabinetDocument, { projectId: 'demo-project', role: 'OWNER' }).toPromise();
  const sets = await client.query(renamed.GetCabinetLabelSetsByIdDocument, { cabinetId: cabinet.data!.getCabinet.id }).toPromise();
  const names = sets.data!.getCabinetLabelSetsById.flatMap((set) => set.labelItems.map((item) => item.labelName));
  expectType<Equal<typeof names, string[]>>(true);
  return names;
}

export async function withGraphqlRequest(url: string, token: string): Promise<number> {
  const client = new GraphQLClient(url, { headers: { authorization: \`Bearer \${token}\` } });
  const { getCabinet } = await client.request(GetCabinetDocument, { projectId: 'demo-project', role: 'REVIEWER' });
  const { getCabinetLabelSetsById } = await client.request(GetCabinetLabelSetsByIdDocument, { cabinetId: getCabinet.id });
  expectType<Equal<(typeof getCabinetLabelSetsById)[number]['labelItems'][number]['labelName'], string>>(true);
  // @ts-expect-error cabinetId is required
  await client.request(GetCabinetLabelSetsByIdDocument, { projectId: 'demo-project' });
  const { getJobs } = await client.request(GetJobsDocument, { jobIds: ['job-1'] });
  expectType<Equal<NonNullable<(typeof getJobs)[number]>['status'], 'QUEUED' | 'IN_PROGRESS' | 'DELIVERED' | 'FAILED' | 'NONE'>>(true);
  return getCabinetLabelSetsById.length;
}

export async function withTheClient(emu: RunningEmulator): Promise<LabelSet[]> {
  const client = createLabelingClient({ url: emu.url, token: emu.token });
  const sets = await client.getProjectLabelSets('demo-project', 'LABELER');
  client.close();
  return sets;
}

export type Outcomes = AutoLabelManyResult['outcomes'];
`;

describe("the README's \"Your own operations\" in an empty project from the installed tarball", () => {
  // One project (the install), and in it one folder per generation laid out as the README says:
  // codegen.ts, src/labelSetNames.query.graphql, src/app.ts; the generation's folder is where its
  // codegen runs. One strict tsc pass compiles both folders (the type check of @types/node and the
  // installed declarations, most of the time, then happens once), each with a src/wrong.ts that
  // passes a wrong variable: that pass must report exactly those two errors and nothing else.
  const GENERATIONS = ['tags', 'labels'] as const;
  type Generation = (typeof GENERATIONS)[number];
  let appDir: string;
  const codegen = {} as Record<Generation, Run>;
  let tsc: Run;
  beforeAll(async () => {
    appDir = ownOperationsDir;
    expect(ownOperationsInstall.code, ownOperationsInstall.output).toBe(0);
    // The generator and Node's types, which the README installs as dev dependencies: linked from
    // this checkout (their own dependencies resolve there), not downloaded.
    mkdirSync(join(appDir, 'node_modules', '@graphql-codegen'));
    for (const name of ['cli', 'typescript-operations', 'typed-document-node']) {
      symlinkSync(join(root, 'node_modules', '@graphql-codegen', name), join(appDir, 'node_modules', '@graphql-codegen', name), 'dir');
    }
    mkdirSync(join(appDir, 'node_modules', '@types'));
    symlinkSync(join(root, 'node_modules', '@types', 'node'), join(appDir, 'node_modules', '@types', 'node'), 'dir');
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('### Your own operations'), readme.indexOf('### Methods'));
    const block = (lang: string, first: string) => [...section.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!).find((b) => b.startsWith(first))!;
    const blocks = { codegen: block('ts', '// codegen.ts'), operation: block('graphql', '# src/labelSetNames.query.graphql'), app: block('ts', '// src/app.ts') };
    // In each generation: as printed (today's), then with the README's rename note applied.
    for (const generation of GENERATIONS) {
      const words = (text: string) => (generation === 'tags' ? text : text.replaceAll('schema.graphql', 'schema.labels.graphql').replaceAll('tagItems', 'labelItems').replaceAll('tagName', 'labelName'));
      const dir = join(appDir, generation);
      mkdirSync(join(dir, 'src'), { recursive: true });
      writeFileSync(join(dir, 'codegen.ts'), words(blocks.codegen));
      writeFileSync(join(dir, 'src', 'labelSetNames.query.graphql'), words(blocks.operation));
      writeFileSync(join(dir, 'src', 'app.ts'), words(blocks.app));
      // A wrong variable is a compile error.
      writeFileSync(join(dir, 'src', 'wrong.ts'), "import type { LabelSetNamesQueryVariables } from './generated/graphql.js';\nexport const v: LabelSetNamesQueryVariables = { cabinet: 'x' };\n");
    }
    writeFileSync(
      join(appDir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'ES2022', strict: true, rootDir: '.', outDir: 'dist', types: ['node'], skipLibCheck: false },
        include: GENERATIONS.map((generation) => `${generation}/src`),
      }),
    );
    const generated = await Promise.all(GENERATIONS.map((generation) => exec(bin('graphql-codegen'), ['--config', 'codegen.ts'], join(appDir, generation))));
    GENERATIONS.forEach((generation, i) => (codegen[generation] = generated[i]!));
    tsc = await exec(bin('tsc'), ['-p', 'tsconfig.json'], appDir);
  }, 180_000);

  it.each(GENERATIONS)('generates, type-checks strictly and runs against the emulator (%s)', async (generation) => {
    expect(codegen[generation].code, codegen[generation].output).toBe(0);
    // tsc's diagnostics (one line each, continued by indented lines): outside the other
    // generation's folder, exactly this generation's wrong variable; none in node_modules.
    const other = GENERATIONS.find((g) => g !== generation)!;
    const diagnostics = tsc.output.split('\n').filter((line) => /^\S/.test(line) && !line.startsWith(`${other}/`));
    expect(diagnostics, tsc.output).toEqual([expect.stringMatching(new RegExp(`^${generation}/src/wrong\\.ts\\(2,\\d+\\): error TS\\d+: Object literal may only specify known properties`))]);
    const emu = await startEmulator({ schemaGeneration: generation });
    try {
      const env = { ...process.env, LABELKIT_URL: emu.url, LABELKIT_TOKEN: emu.token, LABELKIT_PROJECT: 'demo-project' };
      const run = await new Promise<Run>((resolve) =>
        execFile(process.execPath, [join('dist', generation, 'src', 'app.js')], { cwd: appDir, env, timeout: 60_000 }, (error, stdout, stderr) => resolve({ code: error ? 1 : 0, stdout, output: `${stdout}${stderr}` })),
      );
      expect(run.code, run.output).toBe(0);
      expect(run.stdout.split('\n')[0]).toMatch(/^Entities ENTITY, PERSON, ORGANIZATION, LOCATION/);
    } finally {
      await emu.close();
    }
  }, 120_000);
});
