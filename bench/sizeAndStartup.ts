import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { median, smoke } from './support/stats.js';
import type { Figure } from './support/stats.js';

const root = join(import.meta.dirname, '..');

async function bundle(options: Parameters<typeof build>[0]): Promise<{ bytes: number; inputs: string[]; shipped: string[] }> {
  const result = await build({ bundle: true, minify: true, format: 'esm', platform: 'browser', write: false, metafile: true, logLevel: 'silent', ...options });
  // `inputs` lists every module read, `shipped` those with code left in the bundle after tree-shaking.
  const output = Object.values(result.metafile!.outputs)[0]!;
  const shipped = Object.entries(output.inputs).filter(([, input]) => input.bytesInOutput > 0).map(([path]) => path);
  return { bytes: gzipSync(result.outputFiles![0]!.contents).length, inputs: Object.keys(result.metafile!.inputs), shipped };
}

function timeNode(args: string[]): number {
  const t = performance.now();
  execFileSync(process.execPath, args, { cwd: root, stdio: 'ignore' });
  return performance.now() - t;
}

/** The CPU time (ms) of a fresh node process, from bench/support/cpuAtExit.mjs. */
function cpuOfNode(args: string[]): number {
  const hook = join(root, 'bench', 'support', 'cpuAtExit.mjs');
  const result = spawnSync(process.execPath, ['--import', hook, ...args], { cwd: root, encoding: 'utf8' });
  const match = /cpu-ms ([\d.]+)/.exec(result.stderr);
  if (!match) throw new Error(`no CPU time from node ${args.join(' ')}: ${result.stderr}`);
  return Number(match[1]);
}

/** 5. Size and start-up: the client's browser bundle, import time and `labelkit --help`. */
export async function sizeAndStartup(): Promise<Figure[]> {
  const client = await bundle({ entryPoints: [join(root, 'src', 'client', 'index.ts')] });
  // The app of the goal: imports createLabelingClient, calls getProjectLabelSets, startAutoLabel, waitForJob.
  const app = await bundle({ entryPoints: [join(root, 'bench', 'apps', 'realisticApp.ts')] });
  // The least app: one client with a static token, one document, one request; and the same call with plain urql.
  const oneRequest = await bundle({ entryPoints: [join(root, 'bench', 'apps', 'oneRequestApp.ts')] });
  const urqlOneRequest = await bundle({ entryPoints: [join(root, 'bench', 'apps', 'urqlOneRequestApp.ts')] });
  // What a static-token app must not ship: the token refresh (urql's authExchange, our factories) and the rename switch.
  const unused = oneRequest.shipped.filter((p) => /@urql\/exchange-auth|src\/client\/(auth|renameSwitch)\.ts|generated\/labels\//.test(p));
  // Each helper's own cost: an app of the client, one request and that helper, less the one-request app.
  const clientEntry = join(root, 'src', 'client', 'index.ts').replaceAll('\\', '/');
  // The label reads are labelkit/labels' (src/labels, which reaches the client by tsconfig's paths).
  const labelsEntry = join(root, 'src', 'labels', 'index.ts').replaceAll('\\', '/');
  const fromLabels = new Set(['readDocumentLabels', 'readLabelsOfDocuments']);
  const helperApp = (name: string) =>
    bundle({
      stdin: { contents: `import { createLabelingClient } from '${clientEntry}';\nimport { ${name} } from '${fromLabels.has(name) ? labelsEntry : clientEntry}';\nexport { createLabelingClient, ${name} };`, resolveDir: root, loader: 'ts' },
    });
  const base = await bundle({ stdin: { contents: `export { createLabelingClient } from '${clientEntry}';`, resolveDir: root, loader: 'ts' } });
  const helpers = ['getCabinet', 'getLabelSets', 'getProjectLabelSets', 'startAutoLabel', 'getJob', 'getJobs', 'waitForJob', 'waitForJobs', 'waitForJobOrThrow', 'createLabelSet', 'updateLabelSet', 'appendLabelItems', 'deleteLabelSet', 'readDocumentLabels', 'readLabelsOfDocuments', 'clientCredentials', 'refreshingToken'];
  const helperCost: Figure[] = [];
  for (const name of helpers) {
    const { bytes } = await helperApp(name);
    helperCost.push({ bench: 'size and start-up', name: `helper ${name}: its own cost over createLabelingClient (min+gz)`, value: bytes - base.bytes, unit: 'B' });
  }
  const urql = await bundle({ stdin: { contents: "export * from '@urql/core';", resolveDir: root, loader: 'js' } });
  // graphql-request with its whole entry, and with the least an app can import (one request call).
  const gqlWhole = await bundle({ stdin: { contents: "export * from 'graphql-request';", resolveDir: root, loader: 'js' } });
  const gqlLeast = await bundle({ stdin: { contents: "import { request } from 'graphql-request';\nexport const run = (url, query) => request(url, query);", resolveDir: root, loader: 'js' } });
  const graphqlModules = [...client.inputs, ...app.inputs].filter((p) => /node_modules\/graphql\//.test(p)).length;

  const runs = smoke ? 3 : 15;
  // The built client package, as an app imports it (the workspace link node_modules/labelkit).
  const importClient = "await import('labelkit')";
  const times = { client: [] as number[], urql: [] as number[], help: [] as number[], commandHelp: [] as number[], version: [] as number[], bare: [] as number[], helpCpu: [] as number[], bareCpu: [] as number[] };
  const bin = join(root, 'packages', 'labelkit-tools', 'bin', 'labelkit.js');
  for (let i = 0; i < runs; i++) {
    times.client.push(timeNode(['--input-type=module', '-e', importClient]));
    times.urql.push(timeNode(['--input-type=module', '-e', "await import('@urql/core')"]));
    // --help, <command> --help and --version: commander and the commands' flag declarations load,
    // no command's runner. A reference figure, not a goal (issue 25 retired the ≤ 1.15× goal).
    times.help.push(timeNode([bin, '--help']));
    times.commandHelp.push(timeNode([bin, 'label-sets', 'plan', '--help']));
    times.version.push(timeNode([bin, '--version']));
    times.bare.push(timeNode(['-e', '0']));
    times.helpCpu.push(cpuOfNode([bin, '--help']));
    times.bareCpu.push(cpuOfNode(['-e', '0']));
  }
  const kb = (b: number) => Math.round((b / 1024) * 10) / 10;
  const importRatio = median(times.client) / median(times.urql);
  const helpRatio = median(times.help) / median(times.bare);
  const commandHelpRatio = median(times.commandHelp) / median(times.bare);
  const range = (values: number[]) => `${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)} ms`;
  const gqlSmallest = Math.min(gqlWhole.bytes, gqlLeast.bytes);
  return [
    { bench: 'size and start-up', name: 'one request() with one document, static token (labelkit), min+gz', value: kb(oneRequest.bytes), unit: 'KB', goal: '≤ 15 KB', met: oneRequest.bytes <= 15 * 1024 },
    { bench: 'size and start-up', name: 'the same request with plain @urql/core (POST, fetchExchange), min+gz', value: kb(urqlOneRequest.bytes), unit: 'KB' },
    { bench: 'size and start-up', name: 'the same request with graphql-request (one request() call), min+gz', value: kb(gqlLeast.bytes), unit: 'KB' },
    { bench: 'size and start-up', name: 'modules of the token refresh and the rename switch in the static-token one-request app', value: unused.length, unit: '', goal: '0', met: unused.length === 0 },
    { bench: 'size and start-up', name: 'realistic app (getProjectLabelSets, startAutoLabel, waitForJob), min+gz', value: kb(app.bytes), unit: 'KB', goal: '≤ 17 KB', met: app.bytes <= 17 * 1024 },
    { bench: 'size and start-up', name: 'realistic app / graphql-request (smallest of its two bundles)', value: app.bytes / gqlSmallest, unit: '×' },
    { bench: 'size and start-up', name: 'graphql-request, whole entry, min+gz', value: kb(gqlWhole.bytes), unit: 'KB' },
    { bench: 'size and start-up', name: 'graphql-request, one request() call, min+gz', value: kb(gqlLeast.bytes), unit: 'KB' },
    { bench: 'size and start-up', name: 'client entry (everything exported), min+gz', value: kb(client.bytes), unit: 'KB' },
    { bench: 'size and start-up', name: '@urql/core alone, min+gz', value: kb(urql.bytes), unit: 'KB' },
    { bench: 'size and start-up', name: 'modules of graphql in the client bundle', value: graphqlModules, unit: '', goal: '0', met: graphqlModules === 0 },
    { bench: 'size and start-up', name: 'import client (process, median)', value: median(times.client), unit: 'ms' },
    { bench: 'size and start-up', name: 'import @urql/core (process, median)', value: median(times.urql), unit: 'ms' },
    { bench: 'size and start-up', name: 'import client / import urql', value: importRatio, unit: '×', goal: '≤ 1.2×', met: importRatio <= 1.2 },
    { bench: 'size and start-up', name: `labelkit --help (median; range ${range(times.help)})`, value: median(times.help), unit: 'ms' },
    { bench: 'size and start-up', name: `labelkit label-sets plan --help (median; range ${range(times.commandHelp)})`, value: median(times.commandHelp), unit: 'ms' },
    { bench: 'size and start-up', name: `labelkit --version, the full CLI's start-up (median; range ${range(times.version)})`, value: median(times.version), unit: 'ms' },
    { bench: 'size and start-up', name: `node -e 0 (median; range ${range(times.bare)})`, value: median(times.bare), unit: 'ms' },
    // References only: the --help goal of ≤ 1.15× bare node is retired (issue 26).
    { bench: 'size and start-up', name: 'labelkit --help / bare node (reference, goal retired)', value: helpRatio, unit: '×' },
    { bench: 'size and start-up', name: 'labelkit <command> --help / bare node (reference, goal retired)', value: commandHelpRatio, unit: '×' },
    { bench: 'size and start-up', name: 'labelkit --version / bare node', value: median(times.version) / median(times.bare), unit: '×' },
    { bench: 'size and start-up', name: 'labelkit --help, CPU time (median)', value: median(times.helpCpu), unit: 'ms' },
    { bench: 'size and start-up', name: 'node -e 0, CPU time (median)', value: median(times.bareCpu), unit: 'ms' },
    { bench: 'size and start-up', name: 'labelkit --help / bare node (CPU time)', value: median(times.helpCpu) / median(times.bareCpu), unit: '×' },
    ...helperCost,
  ];
}
