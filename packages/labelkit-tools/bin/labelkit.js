#!/usr/bin/env node
// The `labelkit` command: a shim that loads the built CLI (`npm run build` writes dist/cli.js, the
// start-up chunk; each command's work loads from its own chunk when it runs).
//
// Help argv (`--help`, `-h`, `help`, `<command> --help`, `help <command>`) print the help the build
// captured from the same program (dist/help.js), laid out at the terminal's width as commander
// does, without loading commander; every other argv, and a build without dist/help.js, runs the CLI.
// In a fresh clone nothing is built yet: say so instead of a module-not-found stack. Any other
// error is left as it is.
import { existsSync } from 'node:fs';

const args = process.argv.slice(2);
let help;
if (args.includes('--help') || args.includes('-h') || args[0] === 'help' || args[1] === 'help') {
  try {
    const { STORED_HELP, storedHelp, helpWidthOf } = await import('../dist/help.js');
    help = storedHelp(STORED_HELP, args, helpWidthOf(process.stdout));
  } catch {
    help = undefined;
  }
}
const built = new URL('../dist/cli.js', import.meta.url);
if (help !== undefined) {
  process.stdout.write(help);
} else if (existsSync(built)) {
  const { main } = await import(built.href);
  process.exitCode = await main(process.argv);
} else {
  process.stderr.write('labelkit: the CLI is not built; run npm run build first\n');
  process.exitCode = 1;
}
