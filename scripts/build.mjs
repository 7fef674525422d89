// `npm run build`: builds both packages of the workspace from src/ and generated/.
//
//   packages/labelkit/dist/        the client, the typed documents (both generations), the model kit,
//                                  reading a project back (labelkit/labels)
//   packages/labelkit-tools/dist/  the CLI (bin/labelkit.js loads dist/cli.js), the emulator, bulk runs
//
// Declarations: one tsc pass (emitDeclarationOnly) over every entry point into dist-types/, then
// each package takes the declaration files its entry points reach (followed import by import), so
// a package ships no declaration of the other's rooms. JavaScript: esbuild, one build per package,
// with code splitting, ESM for Node 20, no source maps.
//
// - labelkit keeps every package import external: its dependencies are @urql/* (and wonka, which
//   its transport exchange imports); the model kit uses Node built-ins only; labelkit/labels
//   shares the client's chunks (see step 5).
// - labelkit-tools bundles its server-side dependencies (graphql-yoga, graphql, GraphiQL's page,
//   graphql-inspector, commander, …) at the versions this repository's lockfile resolves, with
//   its `overrides` applied (and pg, the PostgreSQL journal's driver, in a chunk loaded only for a
//   postgres:// journal): an install of labelkit-tools then fetches no package but labelkit,
//   whatever those dependencies' own ranges would resolve to today, and npm has no engine to warn
//   about (graphql-yoga's current @whatwg-node/promise-helpers 2 asks for Node 22). `labelkit` stays
//   external, so the tools use the one client an app installs. The CLI keeps the start-up idea of
//   the former scripts/bundleCli.mjs: dist/cli.js holds commander and the commands' flags; each
//   command's runner is a chunk loaded when it runs. The licences of the bundled packages are
//   collected into dist/THIRD-PARTY-LICENSES.txt.
//
// After building, every import left in each package's JavaScript and declarations is checked
// against what its package.json may reach (its dependencies, node: built-ins; in declarations also
// its optional peers, labelkit's `graphql` for types): the build fails on an undeclared one, e.g.
// `graphql` reaching the client package's JavaScript.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const typesDir = join(root, 'dist-types');

/** The entry points of each package: output name → source. Keep in step with its package.json `exports`. */
const PACKAGES = {
  labelkit: {
    entries: {
      index: 'src/client/index.ts',
      documents: 'generated/tags/graphql.ts',
      'documents-labels': 'generated/labels/graphql.ts',
      model: 'src/model/index.ts',
      labels: 'src/labels/index.ts',
    },
  },
  'labelkit-tools': {
    entries: {
      cli: 'src/cli/main.ts',
      emulator: 'src/emulator/index.ts',
      bulk: 'src/bulk/index.ts',
      'label-sets': 'src/labelSets/index.ts',
      eval: 'src/eval/index.ts',
      export: 'src/export/index.ts',
    },
    // Entry points whose declarations are published (the CLI is a command, not an import).
    typed: ['emulator', 'bulk', 'label-sets', 'eval', 'export'],
  },
};

const manifest = (name) => JSON.parse(readFileSync(join(root, 'packages', name, 'package.json'), 'utf8'));
const packageName = (specifier) => (specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]);
const isBuiltin = (specifier) => specifier.startsWith('node:') || builtinModules.includes(specifier);

/** Relative and bare module specifiers of a JavaScript or declaration file (comments left out: TSDoc examples import). */
function specifiersOf(source) {
  const text = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)["']([^"']+)["']/g)].map((m) => m[1]);
}

/** The declaration files reachable from `entries` (relative imports followed), as paths under dist-types/. */
function reachableDeclarations(entries) {
  const seen = new Set();
  const queue = entries.map((source) => source.replace(/\.ts$/, '.d.ts'));
  while (queue.length > 0) {
    const file = queue.pop();
    if (seen.has(file)) continue;
    if (!existsSync(join(typesDir, file))) throw new Error(`build: no declaration ${file} (is it under src/ or generated/?)`);
    seen.add(file);
    for (const specifier of specifiersOf(readFileSync(join(typesDir, file), 'utf8'))) {
      if (specifier.startsWith('.')) queue.push(join(dirname(file), specifier).replace(/\.js$/, '.d.ts'));
    }
  }
  return [...seen].sort();
}

/**
 * Fails when a file of a package imports a package it does not declare: the JavaScript as esbuild's
 * metafile lists its external imports, the declarations as their import lines say. `typesOnly`:
 * optional peers that the declarations alone may name (labelkit's `graphql`, for types), never
 * the JavaScript.
 */
function checkImports(name, metafile, allowed, typesOnly = new Set()) {
  const wrong = [];
  for (const [file, output] of Object.entries(metafile.outputs)) {
    for (const { path } of output.imports.filter((i) => i.external)) {
      if (!isBuiltin(path) && !allowed.has(packageName(path))) wrong.push(`${file}: ${path}`);
    }
  }
  const types = join(root, 'packages', name, 'dist', 'types');
  const declarations = existsSync(types) ? readdirSync(types, { recursive: true }).map(String).filter((f) => f.endsWith('.d.ts')) : [];
  for (const file of declarations) {
    for (const specifier of specifiersOf(readFileSync(join(types, file), 'utf8'))) {
      const known = allowed.has(packageName(specifier)) || typesOnly.has(packageName(specifier));
      if (!specifier.startsWith('.') && !isBuiltin(specifier) && !known) wrong.push(`types/${file}: ${specifier}`);
    }
  }
  if (wrong.length > 0) {
    throw new Error(`build: packages/${name} imports what its package.json does not declare:\n  ${wrong.join('\n  ')}`);
  }
}

/** Writes the name, version, licence and licence text of every package bundled into a build. */
function writeThirdPartyLicenses(metafile, to) {
  const dirs = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match) dirs.add(match[1]);
  }
  const sections = new Map();
  for (const dir of dirs) {
    const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
    const file = readdirSync(join(root, dir)).find((f) => /^(?:licen[cs]e|copying)(?:\.|$)/i.test(f));
    const text = file ? readFileSync(join(root, dir, file), 'utf8').trim() : `(no licence file; package.json says ${pkg.license ?? 'nothing'})`;
    sections.set(`${pkg.name}@${pkg.version}`, `${pkg.name}@${pkg.version} (${pkg.license ?? 'no licence field'})\n\n${text}\n`);
  }
  writeFileSync(to, `labelkit-tools bundles these packages into dist/:\n\n${[...sections.keys()].sort().map((k) => sections.get(k)).join(`\n${'-'.repeat(72)}\n\n`)}`);
}

const started = performance.now();
for (const name of Object.keys(PACKAGES)) rmSync(join(root, 'packages', name, 'dist'), { recursive: true, force: true });
rmSync(typesDir, { recursive: true, force: true });

// 1. Declarations, once for both packages.
const tsc = join(root, 'node_modules', '.bin', 'tsc');
execFileSync(tsc, ['-p', join(root, 'tsconfig.build.json')], { cwd: root, stdio: 'inherit' });

// 2. labelkit: JavaScript with every package external.
const labelkit = PACKAGES.labelkit;
const labelkitBuild = await build({
  absWorkingDir: root,
  entryPoints: labelkit.entries,
  outdir: 'packages/labelkit/dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  packages: 'external',
  metafile: true,
  logLevel: 'warning',
});

// 2b. The SDL of both generations, for an app's own codegen (`labelkit/schema.graphql`,
// `labelkit/schema.labels.graphql`; written by `npm run codegen` into generated/<generation>/).
copyFileSync(join(root, 'generated', 'tags', 'schema.graphql'), join(root, 'packages', 'labelkit', 'dist', 'schema.graphql'));
copyFileSync(join(root, 'generated', 'labels', 'schema.graphql'), join(root, 'packages', 'labelkit', 'dist', 'schema.labels.graphql'));

// 3. labelkit-tools: JavaScript with its server-side dependencies inside, labelkit external.
const tools = PACKAGES['labelkit-tools'];
const toolsBuild = await build({
  absWorkingDir: root,
  entryPoints: tools.entries,
  outdir: 'packages/labelkit-tools/dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['labelkit', 'labelkit/*'],
  // jsonc-parser's `main` is a UMD build whose require('./impl/…') calls a bundler cannot follow;
  // its `module` build is plain ESM.
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  metafile: true,
  logLevel: 'warning',
  // Bundled CommonJS (commander, graphql-yoga's dependencies) requires Node built-ins: give the
  // ESM output a `require` for them.
  banner: { js: "import { createRequire as __labelkitRequire } from 'node:module'; const require = __labelkitRequire(import.meta.url);" },
});
writeThirdPartyLicenses(toolsBuild.metafile, join(root, 'packages', 'labelkit-tools', 'dist', 'THIRD-PARTY-LICENSES.txt'));
// The emulator serves the schema the documents were generated from (src/emulator/schemaSource.ts
// looks for it beside dist/).
copyFileSync(join(root, 'schema.graphql'), join(root, 'packages', 'labelkit-tools', 'schema.graphql'));

// 4. Each package's declarations: what its typed entry points reach.
const publish = (name, sources) => {
  for (const file of reachableDeclarations(sources)) {
    const to = join(root, 'packages', name, 'dist', 'types', file);
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(join(typesDir, file), to);
  }
};
publish('labelkit', Object.values(labelkit.entries));
publish('labelkit-tools', tools.typed.map((entry) => tools.entries[entry]));
rmSync(typesDir, { recursive: true, force: true });

// 5. Nothing imported that a package does not declare.
// Its declarations may name its optional peer graphql (src/client/typedDocument.ts: types only;
// an app without graphql gets a structural document type instead).
const optionalPeers = (pkg) => Object.keys(pkg.peerDependenciesMeta ?? {}).filter((peer) => pkg.peerDependenciesMeta[peer].optional && peer in (pkg.peerDependencies ?? {}));
// labelkit/labels imports the client by its public names (`labelkit`, `labelkit/documents`): in the
// JavaScript esbuild resolves them to the sources (tsconfig.json's paths), so labels.js shares the
// client's chunks (one client, no import of the package by itself); its declarations keep the names,
// which TypeScript resolves to the package's own exports.
checkImports('labelkit', labelkitBuild.metafile, new Set(Object.keys(manifest('labelkit').dependencies ?? {})), new Set(['labelkit', ...optionalPeers(manifest('labelkit'))]));
// pg (bundled: the PostgreSQL journal's driver, loaded only for a postgres:// journal) keeps a
// `require('pg-native')` inside a try, reached only through `pg.native`, which labelkit never uses.
checkImports('labelkit-tools', toolsBuild.metafile, new Set([...Object.keys(manifest('labelkit-tools').dependencies ?? {}), 'pg-native']));

const size = (dir) =>
  readdirSync(dir, { recursive: true })
    .map((f) => join(dir, String(f)))
    .filter((f) => statSync(f).isFile())
    .reduce((sum, f) => sum + statSync(f).size, 0);
const summary = Object.keys(PACKAGES).map((name) => `${name} ${Math.round(size(join(root, 'packages', name, 'dist')) / 1024)} KB`);
console.log(`build: ${summary.join(', ')} (${relative(root, join(root, 'packages'))}/*/dist, ${Math.round(performance.now() - started)} ms)`);
