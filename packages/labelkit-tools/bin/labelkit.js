#!/usr/bin/env node
// The `labelkit` command: a shim that loads the built CLI (`npm run build` writes dist/cli.js, the
// start-up chunk; each command's work loads from its own chunk when it runs). In a fresh clone
// nothing is built yet: say so instead of a module-not-found stack. Any other error is left as it is.
import { existsSync } from 'node:fs';

const built = new URL('../dist/cli.js', import.meta.url);
if (existsSync(built)) {
  const { main } = await import(built.href);
  process.exitCode = await main(process.argv);
} else {
  process.stderr.write('labelkit: the CLI is not built; run npm run build first\n');
  process.exitCode = 1;
}
