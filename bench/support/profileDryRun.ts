/**
 * A worker's `--dry-run --json` over a run of N projects that a PostgreSQL journal holds, alone
 * (the figure of bench/manyWorkers.ts without the rest of it): a cluster of its own with fsync on,
 * the run written by SQL ({@link seedRun}: ~3 records a project) beside two other runs over some of
 * its projects (1,000 and 10,000, as the benchmark's database holds), then the built CLI's dry run,
 * printing wall time, peak RSS, CPU and the load average beside each.
 *
 *   npx tsx bench/support/profileDryRun.ts [projects=100000] [runs=1] [--prof DIR] [--bin FILE]…
 *
 * `--prof DIR` adds `--cpu-prof --cpu-prof-dir=DIR` (then summarize each profile written there
 * with `tsx bench/support/summarizeProfile.ts FILE`). Each `--bin` is a `labelkit.js` to run (default the built CLI of this tree;
 * several are run one after the other on the same seeded run, for a before/after side by side).
 * The CLI must be built (`npm run build`) after source changes.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { demoProjectId } from '../../src/emulator/index.js';
import { startTestPostgres } from '../../test/support/postgres.js';
import { runToEnd } from './childProcess.js';
import { seedRun } from './seedRun.js';

const args = process.argv.slice(2);
const flag = (name: string) => args.flatMap((a, i) => (a === name && args[i + 1] !== undefined ? [args[i + 1]!] : []));
const plain = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
const n = Number(plain[0] ?? 100_000);
const runs = Number(plain[1] ?? 1);
const prof = flag('--prof')[0];
const root = join(import.meta.dirname, '..', '..');
const bins = flag('--bin').length > 0 ? flag('--bin').map((b) => resolve(b)) : [join(root, 'packages', 'labelkit-tools', 'bin', 'labelkit.js')];
const measuring = ['cpuAtExit.mjs', 'reportRss.mjs'].flatMap((f) => ['--import', pathToFileURL(join(import.meta.dirname, f)).href]);

const pg = await startTestPostgres({ durable: true });
if (pg.skip !== undefined) throw new Error(`no PostgreSQL: ${pg.skip}`);
const dir = mkdtempSync(join(tmpdir(), 'labelkit-dry-alone-'));
try {
  // Nothing listens there: a dry run sends nothing, and only compares the service's URL with the run's.
  const run = { name: `dry-alone-${n}`, serviceUrl: 'http://127.0.0.1:9/graphql', modelUrl: 'http://127.0.0.1:9/model' };
  const t0 = performance.now();
  await seedRun(pg.url, run, n);
  // Other runs over some of the same projects, as the benchmark's database holds (its 1k and 10k runs): the dry run asks for them.
  const others = [1000, 10_000].filter((k) => k <= n);
  for (const other of others) await seedRun(pg.url, { ...run, name: `dry-alone-other-${other}` }, other);
  console.log(`seeded ${n} projects (and other runs of ${others.join(' and ') || 'none'}) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const projects = join(dir, 'projects.txt');
  writeFileSync(projects, Array.from({ length: n }, (_, i) => demoProjectId(i + 1)).join('\n') + '\n');
  for (let r = 0; r < runs; r++) {
    for (const bin of bins) {
      const cli = [
        ...measuring, ...(prof ? ['--cpu-prof', `--cpu-prof-dir=${prof}`] : []), bin, 'auto-label', '--projects', projects, '--journal', pg.url,
        '--journal-name', run.name, '--labeler-email', 'bench@example.com', '--endpoint', run.modelUrl, '--files-per-request', '0', '--dry-run', '--json',
      ];
      const env = { PATH: process.env.PATH ?? '', LABELKIT_URL: run.serviceUrl, LABELKIT_TOKEN: 'bench', LABELKIT_MODEL_SECRET: 'bench-dry-secret' };
      const before = loadavg()[0]!;
      // stdout to /dev/null, as the benchmark runs it.
      const { code, stderr, ms } = await runToEnd(cli, { env, cwd: dir });
      const rss = Number(/BENCH_MAX_RSS_KIB=(\d+)/.exec(stderr)?.[1] ?? Number.NaN) / 1024;
      const cpu = Number(/cpu-ms ([\d.]+)/.exec(stderr)?.[1] ?? Number.NaN);
      console.log(
        `${bin}: exit ${code}, wall ${(ms / 1000).toFixed(2)} s, peak RSS ${rss.toFixed(0)} MiB, CPU ${(cpu / 1000).toFixed(2)} s, load ${before.toFixed(1)}→${loadavg()[0]!.toFixed(1)}`,
      );
      if (code !== 0) console.log(stderr);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
  await pg.close();
}
