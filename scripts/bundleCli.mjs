// Part of `npm run build`, after tsc: bundles the CLI for the `labelkit` binary into dist/bin/.
//
// Why: `labelkit --help` spent most of its start-up resolving and loading about 25 modules (the
// command declarations, commander's CommonJS files). One ESM file for start-up, with the commands'
// runners in chunks that load when a command runs, takes about a fifth of the CPU time off
// `--help` (see BENCHMARKS.md). Packages other than commander stay external (loaded from
// node_modules as before); the chunks sit two levels below the package root, like
// dist/src/emulator/, so the emulator finds schema.graphql the same way.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

await build({
  absWorkingDir: root,
  entryPoints: { main: 'dist/src/cli/main.js' },
  outdir: 'dist/bin',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  // commander is CommonJS and requires node built-ins; give the bundle a `require` for them.
  banner: { js: "import { createRequire as __labelkitRequire } from 'node:module'; const require = __labelkitRequire(import.meta.url);" },
  plugins: [
    {
      name: 'external-packages-but-commander',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path === 'commander' || args.path.startsWith('node:') ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
});
