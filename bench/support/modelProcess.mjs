// The sample model in a process of its own, as a user's model is: prints its endpoint URL on the
// first line of stdout and runs until its stdin closes (the benchmark ends it that way).
// Usage: node bench/support/modelProcess.mjs SECRET (needs `npm run build` first).
import { startModelServer } from 'labelkit/model';

const server = await startModelServer({ secretKey: process.argv[2] ?? 'bench-secret' });
process.stdout.write(`${server.url}\n`);
process.stdin.resume();
process.stdin.on('end', () => void server.close().then(() => process.exit(0)));
