#!/usr/bin/env node
// The `labelkit` command: a shim that loads the built CLI (`npm run build` writes dist/bin/, one
// bundled file for start-up; see scripts/bundleCli.mjs).
import { main } from '../dist/bin/main.js';

process.exitCode = await main(process.argv);
