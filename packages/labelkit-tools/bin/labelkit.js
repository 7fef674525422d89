#!/usr/bin/env node
// The `labelkit` command: a shim that loads the built CLI (`npm run build` writes dist/cli.js, the
// start-up chunk; each command's work loads from its own chunk when it runs).
import { main } from '../dist/cli.js';

process.exitCode = await main(process.argv);
