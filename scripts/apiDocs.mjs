// npm run docs:api: the API reference of both packages, from their TSDoc, written to docs/api/
// (not committed). TypeDoc (typedoc.org) reads one entry file per entry point of the packages'
// exports maps (docs/api-entries/, each naming its module as the package does: `labelkit/model`);
// this script first checks that those files are exactly the exports maps' entry points, so a new
// entry point cannot be left out of the reference.
//
// It fails (exit 1) on any warning, the validation's included: an export (module, function, class,
// interface, type alias, variable, enum, method, accessor) without documentation, a {@link} that
// does not resolve or names something the reference leaves out, and a type the API uses that no
// entry point exports. `--check` validates without writing the pages (what .ci/run runs).
//
// Exceptions, each for a reason:
// - The typed documents of `labelkit/documents` and `labelkit/documents/labels` are written by
//   graphql-codegen from operations/ (generated/*/graphql.ts), which carries no doc comments: their
//   names follow one pattern that the module's comment explains (`XDocument`, `XQuery` or
//   `XMutation`, `XQueryVariables`…). Listed below from the generated files themselves, so a
//   hand-written export is never exempt.
// - Types the API names but that no entry point exports (INTENTIONALLY_NOT_EXPORTED): the
//   generated `Exact` helper, and internal names whose shape the reference shows inline.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Application, LogLevel } from 'typedoc';

const root = join(import.meta.dirname, '..');
const ENTRIES = 'docs/api-entries';
const check = process.argv.includes('--check');

const INTENTIONALLY_NOT_EXPORTED = [
  'Exact', // generated/*/graphql.ts: graphql-codegen's helper around every Variables type
  'ERROR_CODES', // src/client/errors.ts: the values of the exported ErrorCode
  'LABELED_BY', // src/emulator/compactLines.ts: the values of the exported LabeledBy
  'Secrets', // src/shared/redact.ts: the secrets an error's redaction knows (never enumerable)
  'SpanInput', // src/emulator/compactLines.ts: one entity of EmulatorStore.setLineLabels
  'Requester', // src/client/jobs.ts, labelSets.ts: what a helper takes as its client, Pick<LabelingClient, 'request'>
  'DocumentNodeOrShape', // src/client/typedDocument.ts: graphql's DocumentNode where the app has graphql, a structural one where not
];

/** The entry points of both packages' exports maps: module name → source file (from its types). */
function entryPoints() {
  const entries = new Map();
  for (const dir of ['labelkit', 'labelkit-tools']) {
    const manifest = JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8'));
    for (const [key, target] of Object.entries(manifest.exports)) {
      if (typeof target !== 'object') continue; // ./package.json and the .graphql files
      const source = /^\.\/dist\/types\/(.+)\.d\.ts$/.exec(target.types)?.[1];
      if (!source) throw new Error(`packages/${dir}/package.json: exports["${key}"].types is not under ./dist/types/`);
      entries.set(manifest.name + key.slice(1), `${source}.ts`);
    }
  }
  return entries;
}

/** Every problem of docs/api-entries/ against the exports maps, as lines. */
function entryProblems(entries) {
  const problems = [];
  const files = readdirSync(join(root, ENTRIES)).filter((f) => f.endsWith('.ts'));
  const modules = new Map();
  for (const file of files) {
    const text = readFileSync(join(root, ENTRIES, file), 'utf8');
    const name = /@module (\S+)/.exec(text)?.[1];
    const from = /^export \* from '\.\.\/\.\.\/(.+)\.js';$/m.exec(text)?.[1];
    if (!name || !from) problems.push(`${ENTRIES}/${file}: needs a doc comment with @module <entry point> and one export * from '../../<source>.js'`);
    else modules.set(name, { file, source: `${from}.ts` });
  }
  for (const [name, source] of entries) {
    const entry = modules.get(name);
    if (!entry) problems.push(`${name} (${source}): no file of ${ENTRIES}/ documents this entry point`);
    else if (entry.source !== source) problems.push(`${ENTRIES}/${entry.file}: exports ${entry.source}, but ${name} is ${source}`);
  }
  for (const name of modules.keys()) if (!entries.has(name)) problems.push(`${ENTRIES}/${modules.get(name).file}: ${name} is no entry point of the exports maps`);
  return problems;
}

/** The generated typed documents' exports, by their full names in the reference. */
function generatedNames(entries) {
  return [...entries]
    .filter(([, source]) => source.startsWith('generated/'))
    // An export with a doc comment (an input type or enum that schema.graphql describes) needs no exception.
    .flatMap(([module, source]) => [...readFileSync(join(root, source), 'utf8').matchAll(/(\*\/\n)?^export (?:type|const) (\w+)/gm)].filter((m) => !m[1]).map((m) => `${module}.${m[2]}`))
    .filter((name) => !name.endsWith('.Exact') && !name.endsWith('.Incremental') && !name.endsWith('.Scalars'));
}

const entries = entryPoints();
const problems = entryProblems(entries);
if (problems.length > 0) {
  console.error(`docs:api: ${problems.length} problem${problems.length === 1 ? '' : 's'} with the entry points:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}

const app = await Application.bootstrapWithPlugins({
  name: 'labelkit',
  entryPoints: [...entries.keys()].map((name) => `${ENTRIES}/${name.replaceAll('/', '-')}.ts`),
  entryPointStrategy: 'resolve',
  tsconfig: 'tsconfig.typedoc.json',
  out: 'docs/api',
  readme: 'none',
  // No source links: the packages name no repository yet, and TypeDoc would guess one from the
  // checkout's git remote (a warning, so a failure, in a clone without an `origin` it can read).
  disableSources: true,
  excludePrivate: true,
  excludeInternal: true,
  excludeExternals: true,
  sort: ['source-order'],
  logLevel: LogLevel.Info,
  treatWarningsAsErrors: true,
  treatValidationWarningsAsErrors: true,
  validation: { notExported: true, invalidLink: true, rewrittenLink: true, notDocumented: true, unusedMergeModuleWith: true },
  requiredToBeDocumented: ['Module', 'Namespace', 'Enum', 'Variable', 'Function', 'Class', 'Interface', 'TypeAlias', 'Method', 'Accessor'],
  intentionallyNotDocumented: generatedNames(entries),
  intentionallyNotExported: INTENTIONALLY_NOT_EXPORTED,
});
const project = await app.convert();
if (!project) process.exit(1);
app.validate(project);
if (app.logger.hasErrors() || app.logger.hasWarnings()) {
  console.error('docs:api: the API reference has the problems above');
  process.exit(1);
}
if (!check) await app.generateDocs(project, 'docs/api');
console.log(`docs:api: ${entries.size} entry points, every export documented and every link resolved${check ? '' : '; written to docs/api/index.html'}`);
