// Loaded with `node --import` into a child process: prints its peak RSS (KiB) on stderr at exit.
import { writeSync } from 'node:fs';
process.on('exit', () => writeSync(2, `\nBENCH_MAX_RSS_KIB=${process.resourceUsage().maxRSS}\n`));
