// Both packages as a user installs them: `npm pack`, then `npm install` of the tarballs into empty
// folders (offline where npm's cache allows: --prefer-offline, nothing beyond what `npm ci` fetched;
// the few extra packages of the consumer projects are packed from this checkout's node_modules).
// Slow (several npm runs and four codegen runs): the one test file that packs. Its three strict
// type checks run tsc in this process (test/support/tsc.ts: tsc's steps and output, no process,
// parsed files shared where the options are the same); `tsc --init` runs as the command. The
// packs run at once, then the three projects' installs at once (npm's cache is safe for that), in
// the first beforeAll. The project of labelkit alone is made by `npm init -y`, as a user makes one;
// it is also the fresh app, without graphql, of the README's "Your own operations" (CommonJS, and
// an ES module folder inside it), so that one install serves both.
// npm test builds before vitest runs; by hand, run `npm run build` first.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';
import { applyEdits, modify, parse as parseJsonc } from 'jsonc-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import { startModelServer } from '../../src/model/index.js';
import { VERSION } from '../../src/shared/constants.js';
import { codeBlocks, docSection } from '../support/docs.js';
import { tsc } from '../support/tsc.js';
import type { TscRun } from '../support/tsc.js';

const root = join(import.meta.dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'labelkit-pack-'));
const bin = (name: string) => join(root, 'node_modules', '.bin', name);

interface Run {
  code: number;
  stdout: string;
  /** stdout and stderr together (npm warns on stderr). */
  output: string;
}

/** Runs a command (with `env` added to this process's environment); resolves with its exit code and output. */
function exec(file: string, args: string[], cwd: string, env?: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd, ...(env && { env: { ...process.env, ...env } }), timeout: 180_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
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
/** The project of labelkit alone: `npm init -y`, then the tarball; later the fresh app of "Your own operations". */
let clientDir: string;
let clientInit: Run;
let clientInstall: Run;
/** What the install of labelkit alone put into node_modules, read before anything is linked there. */
let clientInstalled: { packages: string[]; bytes: number };
let toolsDir: string;
let toolsInstall: Run;
let typedAppDir: string;
let typedAppInstall: Run;

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

  clientDir = join(work, 'fresh-app');
  mkdirSync(clientDir);
  toolsDir = project('with-tools');
  typedAppDir = project('typed-app');
  [[clientInit, clientInstall], toolsInstall, typedAppInstall] = await Promise.all([
    exec('npm', ['init', '-y'], clientDir).then(async (init) => [init, await npmInstall(clientDir, [tarballs.labelkit])] as const),
    npmInstall(toolsDir, [tarballs.labelkit, tarballs.tools]),
    npmInstall(typedAppDir, [tarballs.labelkit, tarballs.tools, ...tarballs.extras]),
  ]);
  clientInstalled = clientInstall.code === 0 ? { packages: installedPackages(clientDir), bytes: bytesUnder(join(clientDir, 'node_modules')) } : { packages: [], bytes: 0 };
}, 300_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('npm install of the labelkit tarball alone', () => {
  it('installs at most 6 packages and 3 MB, without graphql and without an engine warning', () => {
    expect(clientInit.code, clientInit.output).toBe(0);
    expect(clientInstall.code, clientInstall.output).toBe(0);
    expect(clientInstall.output).not.toContain('EBADENGINE');
    const { packages, bytes } = clientInstalled;
    expect(packages.length, packages.join(', ')).toBeLessThanOrEqual(6);
    // graphql is an optional peer of labelkit (for types only): npm does not install it.
    expect(packages).not.toContain('node_modules/graphql');
    expect(packages).not.toContain('node_modules/@graphql-typed-document-node/core');
    expect(bytes).toBeLessThanOrEqual(3_000_000);
  });

  it('ships no source map, no test and no source file', () => {
    const files = readdirSync(join(clientDir, 'node_modules', 'labelkit'), { recursive: true }).map(String);
    expect(files.filter((f) => /\.map$|(?<!\.d)\.ts$|^test\//.test(f))).toEqual([]);
  });
});

describe("each package's own README, in its tarball", () => {
  /** The one js block of an installed package's README.md (which npm took from the tarball). */
  const sample = (dir: string, name: string) => {
    const readme = readFileSync(join(dir, 'node_modules', name, 'README.md'), 'utf8');
    expect(readme).toMatch(new RegExp(`^# ${name}\n`));
    expect(readme).toContain('## Install');
    const blocks = codeBlocks(readme, `${name}/README.md`).filter((b) => b.lang === 'js');
    expect(blocks).toHaveLength(1);
    expect(blocks[0]!.text.split('\n').length).toBeLessThanOrEqual(25);
    return blocks[0]!.text;
  };

  it("labelkit's runs as printed against the emulator and the sample model", async () => {
    const emu = await startEmulator();
    const model = await startModelServer({ secretKey: 'pack-model-secret' });
    try {
      writeFileSync(join(clientDir, 'sample.mjs'), sample(clientDir, 'labelkit'));
      const run = await exec(process.execPath, ['sample.mjs'], clientDir, { LABELKIT_URL: emu.url, LABELKIT_TOKEN: emu.token, MODEL_URL: model.url, MODEL_SECRET: 'pack-model-secret' });
      expect(run.code, run.output).toBe(0);
      expect(run.stdout.trim().split('\n')).toEqual(['Entities ENTITY, PERSON, ORGANIZATION, LOCATION, DATE', expect.stringMatching(/^job-\d+ delivered$/)]);
    } finally {
      await model.close();
      await emu.close();
    }
  });

  it("labelkit-tools' runs as printed", async () => {
    writeFileSync(join(toolsDir, 'sample.mjs'), sample(toolsDir, 'labelkit-tools'));
    const run = await exec(process.execPath, ['sample.mjs'], toolsDir);
    expect(run.code, run.output).toBe(0);
    expect(run.stdout.trim().split('\n')).toEqual([1, 2, 3].map((n) => `demo-project-${n} delivered`));
  });

  it("the README's CommonJS sample requires the client", async () => {
    const block = codeBlocks(docSection('ESM and CommonJS').text).find((b) => b.lang === 'js')!.text;
    writeFileSync(join(clientDir, 'app.cjs'), block);
    const run = await exec(process.execPath, ['app.cjs'], clientDir);
    expect([run.code, run.stdout.trim()], run.output).toEqual([0, 'function']);
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

  it("runs the README's quick start of the client against an emulator started from labelkit-tools", async () => {
    const example = codeBlocks(docSection('Quick start: the client against the emulator').text).find((b) => b.lang === 'js')!.text;
    expect(example).toContain("from 'labelkit-tools/emulator'");
    writeFileSync(join(toolsDir, 'try.mjs'), example);
    const run = await exec(process.execPath, ['try.mjs'], toolsDir);
    expect(run.code, run.output).toBe(0);
    const lines = run.output.trim().split('\n');
    expect(lines[0]).toBe("ENTITY [ 'PERSON', 'ORGANIZATION', 'LOCATION' ]");
    expect(lines[2]).toBe('cabinet demo-project:labeler'); // after the two roots: request with a typed document
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
    const checked = tsc(appDir, `tsconfig.${name}.json`);
    expect(checked.output).toBe('');
    expect(checked.code).toBe(0);
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
import { createLabelingClient, getProjectLabelSets } from 'labelkit';
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
  const sets = await getProjectLabelSets(client, 'demo-project', 'LABELER');
  client.close();
  return sets;
}

export type Outcomes = AutoLabelManyResult['outcomes'];
`;


describe("fresh apps without graphql: the README's \"Your own operations\" from the installed tarball", () => {
  // The project of labelkit alone (npm init -y: CommonJS, as npm writes it today), set up as the
  // README's "Your own operations" says, read from the README when the test runs: `tsc --init` with
  // the README's tsconfig lines, its codegen.ts, operation and app.ts. The project's root is the
  // CommonJS app (the typed-document-node recipe, today's schema); its folder esm/ holds
  // `{"type":"module"}`, which makes it an ES module app (the client preset, the renamed schema,
  // as the README's rename note says). One strict tsc pass (the configuration tsc --init writes)
  // compiles and emits both; each app has a right.ts that must compile (its types are proved not to
  // be `any`) and run, and a wrong.ts whose lines marked `// TSxxxx` must fail with exactly those codes.
  //
  // No `graphql` in the app's node_modules. The generator (its CLI, plugins and preset, the client
  // preset's @graphql-typed-document-node/core) and @types/node, which the README installs as
  // development dependencies at the versions it pins, are linked from this checkout (the pins are
  // checked against them), not downloaded: the test needs no network. Their own dependencies,
  // graphql among them, resolve in this checkout, as symlinks resolve; so the client preset's
  // documents, which are graphql's DocumentNode by design, get graphql's types as they would from
  // the install the README prints, while labelkit and the first recipe's documents, which resolve
  // from the app, find no graphql.
  const APPS = {
    commonjs: { folder: '.', recipe: 0, generation: 'tags' },
    esm: { folder: 'esm', recipe: 1, generation: 'labels' },
  } as const;
  type App = keyof typeof APPS;
  const linked = [
    '@graphql-codegen/cli',
    '@graphql-codegen/typescript-operations',
    '@graphql-codegen/typed-document-node',
    '@graphql-codegen/client-preset',
    '@graphql-typed-document-node/core',
    '@types/node',
  ];
  let appDir: string;
  let section: string;
  const codegen = {} as Record<App, Run>;
  const codegenAgain = {} as Record<App, Run>;
  let compiled: TscRun;
  const file = (app: App, path: string) => join(appDir, APPS[app].folder, path);
  const words = (app: App, text: string) =>
    APPS[app].generation === 'tags' ? text : text.replaceAll('schema.graphql', 'schema.labels.graphql').replaceAll('tagItems', 'labelItems').replaceAll('tagName', 'labelName');
  /** The README section's fenced blocks of one language, in order. */
  const blocks = (lang: string) => [...section.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!);

  beforeAll(async () => {
    appDir = clientDir;
    expect(clientInstall.code, clientInstall.output).toBe(0);
    section = docSection('Your own operations').text;
    for (const name of linked) {
      mkdirSync(join(appDir, 'node_modules', dirname(name)), { recursive: true });
      symlinkSync(join(root, 'node_modules', name), join(appDir, 'node_modules', name), 'dir');
    }
    // tsconfig.json: what tsc --init writes, with the README's lines set in it.
    const init = await exec(bin('tsc'), ['--init'], appDir);
    expect(init.code, init.output).toBe(0);
    const lines = parseJsonc(blocks('jsonc')[0]!) as { compilerOptions: Record<string, unknown>; include?: string[] };
    let tsconfig = readFileSync(join(appDir, 'tsconfig.json'), 'utf8');
    for (const [key, value] of Object.entries(lines.compilerOptions)) tsconfig = applyEdits(tsconfig, modify(tsconfig, ['compilerOptions', key], value, {}));
    // The README's include, for each app (the ES module app's folder is esm/ in this one project).
    const include = (Object.keys(APPS) as App[]).flatMap((name) => (lines.include ?? []).map((p) => (APPS[name].folder === '.' ? p : `${APPS[name].folder}/${p}`)));
    if (lines.include) tsconfig = applyEdits(tsconfig, modify(tsconfig, ['include'], include, {}));
    writeFileSync(join(appDir, 'tsconfig.json'), tsconfig);

    const [codegenTs, operation, app] = [blocks('ts').filter((b) => b.startsWith('// codegen.ts')), blocks('graphql')[0]!, blocks('ts').find((b) => b.startsWith('// src/app.ts'))!];
    expect(codegenTs).toHaveLength(2);
    mkdirSync(join(appDir, 'esm'));
    writeFileSync(join(appDir, 'esm', 'package.json'), JSON.stringify({ type: 'module' }));
    for (const name of Object.keys(APPS) as App[]) {
      mkdirSync(file(name, 'src'), { recursive: true });
      writeFileSync(file(name, 'codegen.ts'), words(name, codegenTs[APPS[name].recipe]!));
      writeFileSync(file(name, 'src/labelSetNames.query.graphql'), words(name, operation));
      writeFileSync(file(name, 'src/app.ts'), words(name, app));
      writeFileSync(file(name, 'src/right.ts'), RIGHT[name]);
      writeFileSync(file(name, 'src/wrong.ts'), WRONG[name]);
    }
    const generated = await Promise.all((Object.keys(APPS) as App[]).map((name) => exec(bin('graphql-codegen'), ['--config', 'codegen.ts'], file(name, '.'))));
    (Object.keys(APPS) as App[]).forEach((name, i) => (codegen[name] = generated[i]!));
    compiled = tsc(appDir, 'tsconfig.json');
    // `npx graphql-codegen` once more after tsc, as a reader does after editing an operation: it
    // looks for codegen.js before codegen.ts (issue 44 item 2).
    const again = await Promise.all((Object.keys(APPS) as App[]).map((name) => exec(bin('graphql-codegen'), [], file(name, '.'))));
    (Object.keys(APPS) as App[]).forEach((name, i) => (codegenAgain[name] = again[i]!));
  }, 180_000);

  it.each(Object.keys(APPS) as App[])('generates again after tsc, which wrote no codegen.js for graphql-codegen to load first (%s)', (name) => {
    expect(existsSync(file(name, 'codegen.js'))).toBe(false);
    expect(codegenAgain[name].code, codegenAgain[name].output).toBe(0);
  });

  it('is the project npm init -y makes, without graphql, with the generator the README pins', () => {
    expect(JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8'))).toMatchObject({ type: 'commonjs', dependencies: { labelkit: expect.any(String) } });
    expect(existsSync(join(appDir, 'node_modules', 'graphql'))).toBe(false);
    // The README's pinned versions are those linked here (and the TypeScript that runs).
    const pins = new Map([...section.matchAll(/\s(@?[\w./-]+)@(\d+\.\d+\.\d+\S*)/g)].map((m) => [m[1]!, m[2]!]));
    const version = (name: string) => (JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
    for (const name of [...linked, 'graphql', 'typescript']) expect([name, pins.get(name)]).toEqual([name, version(name)]);
    // The README's overrides are this repository's own (under which `npm ci` prints no EBADENGINE).
    const overrides = (JSON.parse(`{${blocks('json')[0]!}}`) as { overrides: Record<string, string> }).overrides;
    const own = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { overrides: Record<string, string> }).overrides;
    expect(Object.keys(overrides).length).toBeGreaterThan(0);
    for (const [name, pinned] of Object.entries(overrides)) expect([name, pinned]).toEqual([name, own[name]]);
  });

  it('generates with both recipes; the typed-document-node recipe imports labelkit and nothing of graphql', () => {
    for (const name of Object.keys(APPS) as App[]) expect(codegen[name].code, codegen[name].output).toBe(0);
    const imports = [...readFileSync(file('commonjs', 'src/generated/graphql.ts'), 'utf8').matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1]);
    expect(imports).toEqual(['labelkit']);
    expect(readFileSync(file('esm', 'src/generated/graphql.ts'), 'utf8')).toMatch(/labelItems/);
  });

  it.each(Object.keys(APPS) as App[])('fails strict tsc on the wrong variables and results with their codes, and on nothing else (%s)', (name) => {
    // tsc's diagnostics (one line each, continued by indented lines), as "file(line): TSxxxx".
    const found = compiled.output
      .split('\n')
      .filter((line) => /^\S/.test(line))
      .map((line) => /^(.+?)\((\d+),\d+\): error (TS\d+)/.exec(line)?.slice(1).join(' ') ?? line);
    const prefix = APPS[name].folder === '.' ? 'src/' : `${APPS[name].folder}/src/`;
    const wanted = WRONG[name].split('\n').flatMap((line, i) => [...line.matchAll(/\/\/ (TS\d+)/g)].map((m) => `${prefix}wrong.ts ${i + 1} ${m[1]}`));
    expect(wanted.length).toBeGreaterThanOrEqual(4);
    const mine = found.filter((d) => (APPS[name].folder === '.' ? !d.startsWith('esm/') : d.startsWith(`${APPS[name].folder}/`)));
    expect(mine, compiled.output).toEqual(wanted);
  });

  it.each(Object.keys(APPS) as App[])('runs the README app and the right file against the emulator (%s)', async (name) => {
    const emu = await startEmulator({ schemaGeneration: APPS[name].generation });
    try {
      const env = { ...process.env, LABELKIT_URL: emu.url, LABELKIT_TOKEN: emu.token, LABELKIT_PROJECT: 'demo-project' };
      const run = (script: string) =>
        new Promise<Run>((resolve) =>
          execFile(process.execPath, [script], { cwd: file(name, '.'), env, timeout: 60_000 }, (error, stdout, stderr) => resolve({ code: error ? 1 : 0, stdout, output: `${stdout}${stderr}` })),
        );
      const [app, right] = await Promise.all([run('src/app.js'), run('src/right.js')]);
      expect(app.code, app.output).toBe(0);
      expect(app.stdout.split('\n')[0]).toBe('Entities ENTITY, PERSON, ORGANIZATION, LOCATION, DATE');
      expect(right.code, right.output).toBe(0);
      expect(JSON.parse(right.stdout)).toEqual({ names: ['ENTITY', 'PERSON', 'ORGANIZATION', 'LOCATION', 'DATE'], own: ['Entities'] });
      // Node loaded the ES module package from CommonJS without a word (require of ESM, Node 20.19+).
      expect(app.output).not.toMatch(/Warning|ERR_/);
    } finally {
      await emu.close();
    }
  }, 120_000);
});

/** A compile-time proof that two types are the same (an `any` is not the same as anything else). */
const PROOF = `type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const proves = <T extends true>(proof: T): T => proof;`;

/** Each app's right file: documents of labelkit and of its own codegen, typed to the field, run once. */
const RIGHT: Record<'commonjs' | 'esm', string> = {
  commonjs: `import { createLabelingClient } from 'labelkit';
import { GetCabinetDocument, GetCabinetLabelSetsByIdDocument } from 'labelkit/documents';
import { LabelSetNamesDocument } from './generated/graphql.js';
${PROOF}

async function main(): Promise<void> {
  const client = createLabelingClient({ url: process.env.LABELKIT_URL!, token: process.env.LABELKIT_TOKEN });
  try {
    const { getCabinet } = await client.request(GetCabinetDocument, { projectId: 'demo-project', role: 'LABELER' });
    proves<Equal<typeof getCabinet, { id: string }>>(true);
    const { getCabinetLabelSetsById } = await client.request(GetCabinetLabelSetsByIdDocument, { cabinetId: getCabinet.id });
    const names = getCabinetLabelSetsById.flatMap((set) => set.labelItems.map((item) => item.labelName));
    proves<Equal<typeof names, string[]>>(true);
    const { sets } = await client.request(LabelSetNamesDocument, { cabinetId: getCabinet.id });
    proves<Equal<(typeof sets)[number]['tagItems'][number], { tagName: string }>>(true);
    console.log(JSON.stringify({ names, own: sets.map((set) => set.name) }));
  } finally {
    client.close();
  }
}
void main();
`,
  // An ES module: top-level await.
  esm: `import { createLabelingClient } from 'labelkit';
import { GetCabinetDocument } from 'labelkit/documents';
import { GetCabinetLabelSetsByIdDocument } from 'labelkit/documents/labels';
import { LabelSetNamesDocument } from './generated/graphql.js';
${PROOF}

const client = createLabelingClient({ url: process.env.LABELKIT_URL!, token: process.env.LABELKIT_TOKEN, schemaGeneration: 'labels' });
try {
  const { getCabinet } = await client.request(GetCabinetDocument, { projectId: 'demo-project', role: 'LABELER' });
  const { getCabinetLabelSetsById } = await client.request(GetCabinetLabelSetsByIdDocument, { cabinetId: getCabinet.id });
  const names = getCabinetLabelSetsById.flatMap((set) => set.labelItems.map((item) => item.labelName));
  proves<Equal<typeof names, string[]>>(true);
  const { sets } = await client.request(LabelSetNamesDocument, { cabinetId: getCabinet.id });
  proves<Equal<(typeof sets)[number]['labelItems'][number]['labelName'], string>>(true);
  console.log(JSON.stringify({ names, own: sets.map((set) => set.name) }));
} finally {
  client.close();
}
`,
};

/** Each app's wrong file: every line marked with a code must fail with it, and no other line may. */
const WRONG: Record<'commonjs' | 'esm', string> = {
  commonjs: `import { createLabelingClient } from 'labelkit';
import { GetCabinetDocument, GetCabinetLabelSetsByIdDocument } from 'labelkit/documents';
import { LabelSetNamesDocument } from './generated/graphql.js';

export async function wrong(url: string): Promise<string[]> {
  const client = createLabelingClient({ url, token: 'x' });
  const { getCabinet } = await client.request(GetCabinetDocument, { projectId: 'p', role: 'OWNER' }); // TS2322
  await client.request(GetCabinetLabelSetsByIdDocument, { cabinetId: getCabinet.id, projectId: 'p' }); // TS2353
  const { sets } = await client.request(LabelSetNamesDocument, { cabinetId: true }); // TS2322
  const id: number = getCabinet.id; // TS2322
  return sets.map((set) => set.tagItems[0]!.labelName + id); // TS2339
}
`,
  esm: `import { createLabelingClient } from 'labelkit';
import { GetCabinetLabelSetsByIdDocument } from 'labelkit/documents/labels';
import { LabelSetNamesDocument } from './generated/graphql.js';

const client = createLabelingClient({ url: 'http://127.0.0.1:1/graphql', token: 'x' });
const { getCabinetLabelSetsById } = await client.request(GetCabinetLabelSetsByIdDocument, { cabinet: 'c' }); // TS2561
await client.request(LabelSetNamesDocument); // TS2554
const { sets } = await client.request(LabelSetNamesDocument, { cabinetId: 'c' });
export const names: number[] = getCabinetLabelSetsById.map((set) => set.name); // TS2322
export const old = sets[0]?.tagItems; // TS2339
`,
};
