#!/usr/bin/env node
// The `labelkit` command: a shim that loads the built CLI (npm run build writes dist/).
import { main } from '../dist/src/cli/main.js';

process.exitCode = await main(process.argv);
