#!/usr/bin/env node
// The `labelkit` command: a shim that loads the built CLI (`npm run build` writes dist/cli.js, the
// start-up chunk; each command's work loads from its own chunk when it runs). In a fresh clone
// nothing is built yet: say so instead of a module-not-found stack, and say `npm ci` first when
// the build could not run either (esbuild, which it needs, is not installed). Any other error is
// left as it is.
import { existsSync } from 'node:fs';

const built = new URL('../dist/cli.js', import.meta.url);
if (existsSync(built)) {
  const { main } = await import(built.href);
  process.exitCode = await main(process.argv);
  // After Ctrl-C or SIGTERM (exit 130) the command has printed what it did: a connection still
  // closing (a database host that drops packets) must not keep the process past a second.
  if (process.exitCode === 130) setTimeout(() => process.exit(), 100).unref();
} else {
  let installed = true;
  try {
    import.meta.resolve('esbuild');
  } catch {
    installed = false;
  }
  process.stderr.write(installed ? 'labelkit: the CLI is not built; run npm run build first\n' : 'labelkit: the CLI is not built and the dependencies are not installed; run npm ci first, then npm run build\n');
  process.exitCode = 1;
}
