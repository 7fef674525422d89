#!/usr/bin/env node
// The `labelkit` command: a shim that loads the built CLI (`npm run build` writes dist/cli.js, the
// start-up chunk; each command's work loads from its own chunk when it runs).
//
// Help argv (`--help`, `-h`, `help`, `<command> --help`, `help <command>`) print the help the build
// captured from the same program (dist/help.js), laid out at the terminal's width as commander
// does, without loading commander; every other argv, and a build without dist/help.js, runs the CLI.
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
if (help !== undefined) {
  process.stdout.write(help);
} else {
  const { main } = await import('../dist/cli.js');
  process.exitCode = await main(process.argv);
}
