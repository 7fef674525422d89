// Runs npm scripts side by side (`node scripts/beside.mjs lint codegen:check build`): npm test's
// steps before vitest, which read the sources and write nothing the others read, so they need not
// wait for each other. Each script's output is printed in one piece when it ends (not interleaved),
// under a line that names it; the exit status is 0 when every script succeeded, else 1, after all
// have ended, with a line naming each that failed.
import { spawn } from 'node:child_process';

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  console.error('usage: node scripts/beside.mjs SCRIPT...');
  process.exit(2);
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const results = await Promise.all(
  scripts.map(
    (name) =>
      new Promise((resolve) => {
        const started = Date.now();
        const child = spawn(npm, ['run', name], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: process.stdout.isTTY ? '1' : '0' } });
        const output = [];
        child.stdout.on('data', (chunk) => output.push(chunk));
        child.stderr.on('data', (chunk) => output.push(chunk));
        child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
        child.on('close', (code, signal) => {
          const seconds = ((Date.now() - started) / 1000).toFixed(1);
          process.stdout.write(`\n── npm run ${name} (${code === 0 ? 'ok' : `failed: ${signal ?? `exit ${code}`}`}, ${seconds} s)\n`);
          process.stdout.write(Buffer.concat(output));
          resolve({ name, ok: code === 0 });
        });
      }),
  ),
);
const failed = results.filter((result) => !result.ok).map((result) => result.name);
if (failed.length > 0) {
  console.error(`\nfailed: ${failed.map((name) => `npm run ${name}`).join(', ')}`);
  process.exit(1);
}
