// `npm run build`: builds both packages of the workspace from src/ and generated/.
//
//   packages/labelkit/dist/        the client, the typed documents (both generations), the model kit
//   packages/labelkit-tools/dist/  the CLI (bin/labelkit.js loads dist/cli.js), the emulator, bulk runs
//
// Declarations: one tsc pass (emitDeclarationOnly) over every entry point into dist-types/, then
// each package takes the declaration files its entry points reach (followed import by import), so
// a package ships no declaration of the other's rooms. JavaScript: esbuild, one build per package,
// with code splitting, ESM for Node 20, no source maps.
//
// - labelkit keeps every package import external: its dependencies are @urql/* (and wonka, which
//   its transport exchange imports); the model kit uses Node built-ins only.
// - labelkit-tools bundles its server-side dependencies (graphql-yoga, graphql, GraphiQL's page,
//   graphql-inspector, commander, …) at the versions this repository's lockfile resolves, with
//   its `overrides` applied: an install of labelkit-tools then fetches no package but labelkit,
//   whatever those dependencies' own ranges would resolve to today, and npm has no engine to warn
//   about (graphql-yoga's current @whatwg-node/promise-helpers 2 asks for Node 22). `labelkit` stays
//   external, so the tools use the one client an app installs. The CLI keeps the start-up idea of
//   the former scripts/bundleCli.mjs: dist/cli.js holds commander and the commands' flags; each
//   command's runner is a chunk loaded when it runs. The licences of the bundled packages are
//   collected into dist/THIRD-PARTY-LICENSES.txt.
//
// After building, every import left in each package's JavaScript and declarations is checked
// against what its package.json may reach (its dependencies, node: built-ins): the build fails on
// an undeclared one, e.g. `graphql` reaching the client package.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
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
    },
  },
  'labelkit-tools': {
    entries: {
      cli: 'src/cli/main.ts',
      emulator: 'src/emulator/index.ts',
      bulk: 'src/bulk/index.ts',
      'label-sets': 'src/labelSets/index.ts',
      eval: 'src/eval/index.ts',
    },
    // Entry points whose declarations are published (the CLI is a command, not an import).
    typed: ['emulator', 'bulk', 'label-sets', 'eval'],
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
 * metafile lists its external imports, the declarations as their import lines say.
 */
function checkImports(name, metafile, allowed) {
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
      if (!specifier.startsWith('.') && !isBuiltin(specifier) && !allowed.has(packageName(specifier))) wrong.push(`types/${file}: ${specifier}`);
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

/**
 * Captures the help of every command of the built CLI and writes dist/help.js: the renderer of
 * src/cli/storedHelp.ts and `STORED_HELP`, each help argv's text as layout parts.
 */
async function writeStoredHelp(dist) {
  const { buildProgram } = await import(pathToFileURL(join(dist, 'cli.js')).href);
  const parts = [];
  const record = (part) => `\u0000${parts.push(part) - 1}\u0000`;
  let out = '';
  const io = { stdout: { write: (s) => void (out += s) }, stderr: { write: (s) => void (out += `\u0001${s}`) }, env: {}, stdinIsTTY: true, readStdin: async () => '', onInterrupt: () => () => {} };
  /** A fresh program as the CLI builds it, with the layout calls recorded; its commands with their paths. */
  const recordingProgram = () => {
    const program = buildProgram(io, () => {});
    const commands = [];
    const walk = (command, path) => {
      commands.push({ command, path });
      // The layout calls are recorded, not laid out (see 3b above); the rest of Help stays commander's.
      command.configureHelp({
        ...command.configureHelp(),
        formatItem(term, termWidth, description, helper) {
          if (!description) return `  ${term}`;
          if (helper.displayWidth(term) !== term.length) throw new Error(`build: help term with colour codes: ${term}`);
          return record(['item', `  ${term.padEnd(termWidth)}  `, termWidth, description, !helper.preformatted(description)]);
        },
        boxWrap(text, width) {
          if (width !== this.helpWidth) throw new Error(`build: commander wrapped help at ${width}, not the help width ${this.helpWidth}: update src/cli/storedHelp.ts`);
          return record(['wrap', text]);
        },
      });
      // Help must never run a command: a help argv that reached an action is a bug of this step.
      command.hook('preAction', () => {
        throw new Error(`build: ${['labelkit', ...path].join(' ')} ran its action while its help was captured`);
      });
      for (const sub of command.commands) walk(sub, [...path, sub.name()]);
    };
    walk(program, []);
    return { program, commands };
  };
  const { program, commands } = recordingProgram();
  const shapes = [];
  for (const { command, path } of commands) {
    shapes.push([...path, '--help'], [...path, '-h']);
    // `help` and `help <sub>` where commander adds its help command (commands without an action).
    if (command.createHelp().visibleCommands(command).some((c) => c.name() === 'help')) {
      shapes.push([...path, 'help']);
      for (const sub of command.commands) shapes.push([...path, 'help', sub.name()]);
    }
    if (path.length > 0 && command.aliases().length > 0) throw new Error(`build: ${path.join(' ')} has aliases; store their help argv too`);
  }
  const texts = [];
  const argv = {};
  for (const shape of shapes) {
    out = '';
    parts.length = 0;
    try {
      await recordingProgram().program.parseAsync(shape, { from: 'user' });
      throw new Error(`build: ${shape.join(' ')} printed no help`);
    } catch (error) {
      if (error?.code !== 'commander.helpDisplayed' && error?.code !== 'commander.help') throw error;
    }
    if (out.includes('\u0001') || out.includes('\u001b')) throw new Error(`build: ${shape.join(' ')} wrote to stderr or in colour while printing help`);
    const text = out.split('\u0000').map((piece, i) => (i % 2 === 0 ? piece : parts[Number(piece)])).filter((piece) => piece !== '');
    const key = JSON.stringify(text);
    let index = texts.findIndex((t) => JSON.stringify(t) === key);
    if (index < 0) index = texts.push(text) - 1;
    argv[JSON.stringify(shape)] = index;
  }
  const stored = { minWidthToWrap: program.createHelp().minWidthToWrap, texts, argv };
  await build({
    absWorkingDir: root,
    stdin: { contents: `export * from './src/cli/storedHelp.ts';\nexport const STORED_HELP = ${JSON.stringify(stored)};\n`, resolveDir: root, loader: 'ts', sourcefile: 'help.ts' },
    outfile: join(dist, 'help.js'),
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
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

// 3b. The stored help of the CLI (bin/labelkit.js prints it for help argv without loading
// commander): the real program, as dist/cli.js builds it, prints its help for every help argv;
// commander's layout calls (formatItem, and boxWrap for the description) are recorded instead of
// laid out, so that dist/help.js lays them out at the terminal's width as commander would
// (src/cli/storedHelp.ts; test/cli/storedHelp.test.ts compares the two at every width).
await writeStoredHelp(join(root, 'packages', 'labelkit-tools', 'dist'));

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
checkImports('labelkit', labelkitBuild.metafile, new Set(Object.keys(manifest('labelkit').dependencies ?? {})));
checkImports('labelkit-tools', toolsBuild.metafile, new Set(Object.keys(manifest('labelkit-tools').dependencies ?? {})));

const size = (dir) =>
  readdirSync(dir, { recursive: true })
    .map((f) => join(dir, String(f)))
    .filter((f) => statSync(f).isFile())
    .reduce((sum, f) => sum + statSync(f).size, 0);
const summary = Object.keys(PACKAGES).map((name) => `${name} ${Math.round(size(join(root, 'packages', name, 'dist')) / 1024)} KB`);
console.log(`build: ${summary.join(', ')} (${relative(root, join(root, 'packages'))}/*/dist, ${Math.round(performance.now() - started)} ms)`);
