import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import semver from 'semver';
import type TypeScript from 'typescript';
import { isRecord } from '../../../shared/isRecord.js';
import { requireConnection } from '../../connection.js';
import type { ConnectionFlags } from '../../connection.js';
import { introspect } from '../../introspect.js';
import type { ActionContext } from '../../runAction.js';
import { CliUsageError } from '../../usageError.js';
import type { UsageProblem } from '../../usageError.js';
import { problemLine, runDocumentsCheck } from '../../checks/documents.js';
import { codegenConfigFile } from '../../checks/documentSources.js';
import { checkModelFlags, probeModel } from '../../checks/modelEndpoint.js';
import type { CheckedModelFlags } from '../../checks/modelEndpoint.js';

/** Flags of `labelkit doctor`. */
export interface DoctorFlags extends ConnectionFlags {
  dir?: string;
  model?: string;
  secretKeyEnv?: string;
  allowInsecureEndpoint?: boolean;
}

/** One thing wrong with the app's set-up, and what fixes it. */
export interface Finding {
  /** The check that found it: `node`, `tsconfig`, `typescript`, `types`, `codegen`, `documents`, `service`, `model`. */
  check: string;
  problem: string;
  fix: string;
}

/** What `labelkit doctor` found. */
export interface DoctorResult {
  dir: string;
  healthy: boolean;
  findings: Finding[];
  /** Each check that ran, and what it saw (versions, counts), healthy or not. */
  checks: { check: string; saw: string }[];
}

/**
 * The `overrides` that keep graphql-codegen's install free of EBADENGINE on Node 20: the
 * `@whatwg-node/*` and `sync-fetch` releases that still run there (docs/typed-documents.md prints
 * the same block, and this repository's package.json has them; test/cli/doctor.test.ts compares).
 */
export const CODEGEN_OVERRIDES: Readonly<Record<string, string>> = {
  '@whatwg-node/promise-helpers': '1.3.2',
  '@whatwg-node/disposablestack': '0.0.6',
  '@whatwg-node/fetch': '0.10.13',
  'sync-fetch': '0.6.0-2',
  '@graphql-tools/delegate': '12.2.0',
};

/** The first TypeScript that compiles `import` of an ES module (labelkit) in a CommonJS file. */
const COMMONJS_TYPESCRIPT = '5.8.0';

/** A probe compiled with the app's tsconfig: does `labelkit/documents` give a typed document? */
const PROBE = [
  "import { GetCabinetDocument } from 'labelkit/documents';",
  "import { createLabelingClient } from 'labelkit';",
  'export const probe = GetCabinetDocument;',
  'export const client = createLabelingClient;',
  '',
].join('\n');

/** A JSON (or JSONC) file as an object; undefined when absent or not an object. */
function readJson(path: string): Record<string, unknown> | undefined {
  if (!existsSync(path)) return undefined;
  const value: unknown = parseJsonc(readFileSync(path, 'utf8'));
  return isRecord(value) ? value : undefined;
}

/** The version of a package installed in the app, or undefined. */
function installedVersion(dir: string, name: string): string | undefined {
  const manifest = readJson(join(dir, 'node_modules', name, 'package.json'));
  return typeof manifest?.version === 'string' ? manifest.version : undefined;
}

/** A string field of an object, lower-cased. */
const lower = (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : undefined);

/**
 * Checks an importer's project: Node, module system, tsconfig, TypeScript, whether labelkit's
 * documents are typed there, codegen's overrides, the app's documents, and with flags the
 * service and the model endpoint.
 *
 * @param flags - `--dir`, `--url` (and the auth flags), `--model`, `--secret-key-env`
 * @param context - the run's io, printer and Ctrl-C signal
 * @returns one finding per problem, each with its fix
 * @throws {@link CliUsageError} when `--dir` is not a project folder (no package.json) or `--model`
 * and its flags are wrong (every problem at once, before any check runs)
 * @remarks The checks that depend on others stay quiet when those found something (a tsconfig
 * that cannot resolve `labelkit/documents` is one finding, not also "typed as any"), so each
 * broken set-up gives its one finding.
 * @example
 * ```ts
 * const result = await runDoctor({ dir: 'my-app' }, context);
 * ```
 */
export async function runDoctor(flags: DoctorFlags, context: ActionContext): Promise<DoctorResult> {
  const dir = resolve(flags.dir ?? '.');
  const pkg = existsSync(dir) && statSync(dir).isDirectory() ? readJson(join(dir, 'package.json')) : undefined;
  // Every flag first, before the checks (a TypeScript compile, the documents, the service) that
  // take seconds: a bad --model is refused at once, with a bad --dir.
  const problems: UsageProblem[] = [];
  if (!pkg) problems.push({ field: '--dir', message: `${dir} has no package.json (run doctor in your app's folder)` });
  let model: CheckedModelFlags | undefined;
  try {
    if (flags.model !== undefined) model = checkModelFlags(flags.model, { secretKeyEnv: flags.secretKeyEnv ?? 'LABELKIT_MODEL_SECRET', sizes: '1,10', ...(flags.allowInsecureEndpoint === true && { allowInsecureEndpoint: true }) }, context);
  } catch (error) {
    if (!(error instanceof CliUsageError)) throw error;
    problems.push(...error.problems);
  }
  if (problems.length > 0 || !pkg) throw new CliUsageError(problems, 'labelkit doctor --help');
  const findings: Finding[] = [];
  const checks: DoctorResult['checks'] = [];
  const found = (check: string, problem: string, fix: string) => findings.push({ check, problem, fix });

  // Node against labelkit's engines and the app's.
  const node = process.versions.node;
  const labelkitVersion = installedVersion(dir, 'labelkit');
  const labelkitEngines = readJson(join(dir, 'node_modules', 'labelkit', 'package.json'))?.engines;
  checks.push({ check: 'node', saw: `Node ${node}` });
  for (const [whose, engines] of [['labelkit', labelkitEngines], ['the app', pkg.engines]] as const) {
    const range = isRecord(engines) && typeof engines.node === 'string' ? engines.node : undefined;
    if (range !== undefined && !semver.satisfies(node, range)) found('node', `Node ${node} does not satisfy ${whose}'s engines.node "${range}"`, `run a Node that does (labelkit needs ^20.19.0 or >=22.12.0)${whose === 'the app' ? ", or correct the app's engines" : ''}`);
  }
  if (labelkitVersion === undefined) found('labelkit', 'labelkit is not installed in this folder', 'npm install labelkit');

  // The module system: package.json "type" and the tsconfig lines docs/typed-documents.md names.
  const type = pkg.type === 'module' ? 'module' : 'commonjs';
  const tsconfigPath = join(dir, 'tsconfig.json');
  const tsconfig = readJson(tsconfigPath);
  const options = isRecord(tsconfig?.compilerOptions) ? tsconfig.compilerOptions : {};
  const module = lower(options.module);
  const resolution = lower(options.moduleResolution) ?? (module === undefined || module === 'commonjs' ? 'node10' : ['node16', 'node18', 'node20', 'nodenext'].includes(module) ? module : module === 'preserve' ? 'bundler' : 'classic');
  checks.push({ check: 'tsconfig', saw: tsconfig ? `${type}, module ${module ?? '(default)'}, moduleResolution ${resolution}` : `${type}, no tsconfig.json` });
  const before = findings.length;
  if (tsconfig) {
    if (['node', 'node10', 'classic'].includes(resolution)) {
      found('tsconfig', `moduleResolution ${resolution} does not read package.json "exports": labelkit/documents cannot be found`, '"module": "nodenext" in tsconfig.json (and no moduleResolution line)');
    }
    if (type === 'commonjs' && options.verbatimModuleSyntax === true) {
      found('tsconfig', 'verbatimModuleSyntax is true (as tsc --init writes it) in a CommonJS project: tsc refuses its imports (TS1295)', '"verbatimModuleSyntax": false in tsconfig.json, or "type": "module" in package.json');
    }
    const codegenTs = existsSync(join(dir, 'codegen.ts'));
    if (codegenTs && Array.isArray(options.types) && !options.types.includes('node')) {
      found('tsconfig', 'types leaves out "node" (tsc --init writes []): codegen.ts imports node:module', '"types": ["node"] in tsconfig.json');
    }
    if (codegenTs && tsconfig.include === undefined && tsconfig.files === undefined && options.noEmit !== true && options.outDir === undefined) {
      found('tsconfig', 'tsc compiles codegen.ts into codegen.js, which graphql-codegen loads first (a CommonJS codegen.js fails, an ES one hides every later edit of codegen.ts)', '"include": ["src"] in tsconfig.json, then delete codegen.js');
    }
  }
  if (existsSync(join(dir, 'codegen.ts')) && existsSync(join(dir, 'codegen.js'))) {
    found('codegen', 'codegen.js stands beside codegen.ts: graphql-codegen loads codegen.js first', 'delete codegen.js (and keep tsc from writing it: "include": ["src"])');
  }

  // TypeScript: its version, then a probe compiled with the app's own tsconfig and TypeScript.
  const tsVersion = installedVersion(dir, 'typescript');
  checks.push({ check: 'typescript', saw: tsVersion ? `TypeScript ${tsVersion}` : 'no TypeScript installed' });
  if (tsVersion && type === 'commonjs' && semver.valid(tsVersion) && semver.lt(tsVersion, COMMONJS_TYPESCRIPT)) {
    found('typescript', `TypeScript ${tsVersion} cannot compile an import of labelkit (an ES module) in a CommonJS project`, 'npm install -D typescript@5.9.3 (5.8 or later)');
  }
  if (tsVersion && tsconfig && labelkitVersion && findings.length === before) {
    const typed = probeDocuments(dir, tsconfigPath);
    checks.push({ check: 'types', saw: typed ?? 'labelkit/documents is typed' });
    if (typed !== undefined) found('types', `labelkit/documents types as any with this tsconfig: ${typed}`, 'follow docs/typed-documents.md, "3. tsconfig.json"');
  }

  // codegen: its versions, and the overrides on a Node before 22.
  const deps = { ...(isRecord(pkg.dependencies) ? pkg.dependencies : {}), ...(isRecord(pkg.devDependencies) ? pkg.devDependencies : {}) };
  if ('@graphql-codegen/cli' in deps) {
    const names = ['@graphql-codegen/cli', '@graphql-codegen/typescript-operations', '@graphql-codegen/typed-document-node', '@graphql-codegen/client-preset'];
    checks.push({ check: 'codegen', saw: names.flatMap((n) => (n in deps ? [`${n} ${installedVersion(dir, n) ?? `${String(deps[n])} (not installed)`}`] : [])).join(', ') });
    const overrides = isRecord(pkg.overrides) ? pkg.overrides : {};
    const missing = Object.entries(CODEGEN_OVERRIDES).filter(([name, version]) => overrides[name] !== version);
    if (semver.major(node) < 22 && missing.length > 0) {
      found('codegen', `package.json "overrides" lacks ${missing.map(([n, v]) => `${n} ${v}`).join(', ')}: on Node ${semver.major(node)} npm installs graphql-codegen with 80 to 120 lines of EBADENGINE`, 'add the "overrides" block of docs/typed-documents.md to package.json, then npm install');
    }
  }

  // The service first (auth and reachability), then the app's documents against it.
  let serviceOk = false;
  if (flags.url !== undefined) {
    const connection = await requireConnection(flags, context.io, context.printer);
    try {
      await introspect(connection, context.signal);
      serviceOk = true;
      checks.push({ check: 'service', saw: `${connection.url} answers` });
    } catch (error) {
      const code = isRecord(error) && typeof error.code === 'string' ? error.code : 'ERROR';
      found('service', error instanceof Error ? error.message : String(error), code === 'AUTH' ? `check the token (${connection.source})` : 'check --url and that the service is up');
    }
  }
  const config = codegenConfigFile(dir);
  try {
    const documents = await runDocumentsCheck([], { dir, ...(serviceOk && { ...flags, dir }) }, context);
    checks.push({ check: 'documents', saw: `${documents.operations} operations, ${documents.fragments} fragments${config ? ` (${config})` : ''}; ready for rename day: ${documents.ready ? 'yes' : 'no'}` });
    for (const p of documents.problems) found('documents', problemLine(p), p.fix ?? (p.kind === 'deprecated' ? 'select what the deprecation names instead' : 'correct the operation'));
  } catch (error) {
    if (!(error instanceof CliUsageError)) throw error;
    const none = error.problems.every((p) => p.message.startsWith('no file matches'));
    if (none) checks.push({ check: 'documents', saw: 'no documents found' });
    else for (const p of error.problems) found('documents', `${p.field}: ${p.message}`, 'correct the file: it must hold GraphQL operations and fragments');
  }

  if (model !== undefined) {
    try {
      const answers = await probeModel(model, context);
      checks.push({ check: 'model', saw: `${answers.url}: ${answers.valid ? 'valid answers' : 'invalid answers'}, a wrong secret got ${answers.wrongSecretStatus}` });
      for (const row of answers.rows) for (const p of row.problems) found('model', `${row.size} lines: ${p.path}: ${p.message}`, 'answer as the span contract says (labelkit model check lists every problem; docs/model.md)');
      if (answers.wrongSecretStatus !== 401 && answers.wrongSecretStatus !== 403) found('model', `a wrong secret got ${answers.wrongSecretStatus}, not 401 or 403`, 'refuse a request whose secret is wrong');
    } catch (error) {
      found('model', error instanceof Error ? error.message : String(error), 'check --model and that the endpoint is up');
    }
  }
  return { dir, healthy: findings.length === 0, findings, checks };
}

/**
 * Compiles {@link PROBE} with the app's TypeScript and tsconfig (the probe alone, not the app).
 *
 * @returns undefined when `labelkit/documents` is typed; else the first diagnostic, or "any"
 */
function probeDocuments(dir: string, tsconfigPath: string): string | undefined {
  const ts = createRequire(join(dir, 'package.json'))('typescript') as typeof TypeScript;
  const parsed = ts.getParsedCommandLineOfConfigFile(tsconfigPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  if (!parsed) return 'tsconfig.json cannot be read';
  const probe = join(dir, 'labelkit-doctor-probe.ts');
  const host = ts.createCompilerHost(parsed.options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (f) => f === probe || fileExists.call(host, f);
  host.readFile = (f) => (f === probe ? PROBE : readFile.call(host, f));
  host.getSourceFile = (f, v, ...rest) => (f === probe ? ts.createSourceFile(f, PROBE, v) : getSourceFile.call(host, f, v, ...rest));
  const program = ts.createProgram({ rootNames: [probe], options: { ...parsed.options, noEmit: true }, host });
  const source = program.getSourceFile(probe)!;
  const diagnostics = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
  if (diagnostics.length > 0) return `TS${diagnostics[0]!.code} ${ts.flattenDiagnosticMessageText(diagnostics[0]!.messageText, ' ')}`;
  const checker = program.getTypeChecker();
  let isAny = false;
  source.forEachChild(function visit(node) {
    if (ts.isVariableDeclaration(node) && node.name.getText(source) === 'probe') isAny = (checker.getTypeAtLocation(node).flags & ts.TypeFlags.Any) !== 0;
    node.forEachChild(visit);
  });
  return isAny ? 'GetCabinetDocument is any' : undefined;
}
