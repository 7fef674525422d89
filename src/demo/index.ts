import { randomBytes } from 'node:crypto';
import { createLabelingClient, getCabinet, getLabelSets, isLabelkitError, startAutoLabel, waitForJob } from 'labelkit';
import type { LabelSet } from 'labelkit';
import { DEMO_PROJECT_ID, startEmulator } from '../emulator/index.js';
import type { RunningEmulator } from '../emulator/index.js';
import { buildLabelTree } from 'labelkit/labels';
import { startModelServer } from 'labelkit/model';
import type { RunningModelServer } from 'labelkit/model';
import { drawTree } from '../shared/drawTree.js';

/** Options of {@link runDemo}. */
export interface DemoOptions {
  /** Where lines go. @defaultValue console.log */
  out?: (line: string) => void;
  /**
   * Keep the emulator and the model running after the job, until this signal aborts (Ctrl-C), so
   * a person can open the results page. Without it, the demo stops everything at the end.
   * @defaultValue stop at once
   */
  keepUntil?: AbortSignal;
}

function treeLines(set: LabelSet): string[] {
  const heading = `${set.name} (label set ${set.index}, ${set.labelItems.length} labels)`;
  return [heading, ...drawTree(buildLabelTree(set).roots, ({ item }) => `${item.labelName}${item.color ? ` ${item.color}` : ''}`, '  ')];
}

function mark(text: string, entities: { label: string; start_char: number; end_char: number }[]): string {
  let out = '';
  let at = 0;
  for (const e of [...entities].sort((a, b) => a.start_char - b.start_char)) {
    out += `${text.slice(at, e.start_char)}[${text.slice(e.start_char, e.end_char)}]{${e.label}}`;
    at = e.end_char;
  }
  return out + text.slice(at);
}

/** Whether the servers stay up after the job: `keepUntil` was given and has not aborted yet. */
const keeping = (signal: AbortSignal | undefined): boolean => signal !== undefined && !signal.aborted;

/**
 * The line with the job's results page. When the servers stop with the demo, the URL is dead by the
 * time anyone opens it, so the line says so and how to keep it.
 */
function resultsLine(url: string, signal: AbortSignal | undefined): string {
  return keeping(signal) ? `results   ${url}` : `results   ${url} (the emulator stops with the demo: rerun with --keep to open it)`;
}

/**
 * With `keepUntil`, says where to look and how to connect (the export lines, for `labelkit eval`
 * and the other commands in a second shell), and waits for Ctrl-C; without it, returns at once.
 */
async function keepUp(signal: AbortSignal | undefined, emu: RunningEmulator, out: (line: string) => void): Promise<void> {
  if (!signal || !keeping(signal)) return;
  out(`keeping   the emulator up at ${emu.baseUrl}/ (home) and ${emu.url} (GraphiQL); Ctrl-C stops`);
  out('connect   from another shell (labelkit eval, labelkit labels, …):');
  out(`  export LABELKIT_URL=${emu.url}`);
  out(`  export LABELKIT_TOKEN=${emu.token}   # a throwaway test token of this emulator only`);
  await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

/**
 * The whole flow on one machine: emulator + sample model on free loopback ports, then, through
 * the public client only, label sets, an auto-labeling job with 2 lines per request, progress,
 * and the labels each document got.
 *
 * @param options - where to print; `keepUntil` keeps the servers up until it aborts
 * @returns the exit code: 0 when the job was DELIVERED, 1 otherwise (one clear line printed)
 * @remarks Prints the results page URL of the job (`results  http://…`): opening it in a browser
 * on this machine passes through the emulator's home page, which sets the page cookie. Without
 * `keepUntil` (or once it has aborted) the servers stop when the demo returns, so that line ends
 * with `(the emulator stops with the demo: rerun with --keep to open it)`.
 * @example
 * ```ts
 * const code = await runDemo({ out: (line) => console.log(line) });
 * ```
 */
export async function runDemo(options: DemoOptions = {}): Promise<number> {
  const out = options.out ?? ((line: string) => console.log(line));
  let emu: RunningEmulator | undefined;
  let model: RunningModelServer | undefined;
  const client = { current: undefined as ReturnType<typeof createLabelingClient> | undefined };
  try {
    const secretKey = randomBytes(16).toString('hex');
    emu = await startEmulator();
    model = await startModelServer({ secretKey });
    out(`emulator  ${emu.url}`);
    out(`model     ${model.url}`);
    const labeling = createLabelingClient({ url: emu.url, token: emu.token, poll: { intervalMs: 100, maxIntervalMs: 500 } });
    client.current = labeling;

    const cabinet = await getCabinet(labeling, DEMO_PROJECT_ID, 'LABELER');
    out(`cabinet   ${cabinet.id} (project ${DEMO_PROJECT_ID}, LABELER)`);
    for (const set of await getLabelSets(labeling, cabinet.id)) for (const line of treeLines(set)) out(line);

    const job = await startAutoLabel(labeling, {
      projectId: DEMO_PROJECT_ID,
      labelerEmail: 'labeler@example.com',
      options: { numberOfFilesPerRequest: 2 },
      targetAPI: { endpoint: model.url, secretKey },
    });
    out(`job       ${job.id} ${job.status} (2 lines per model request)`);
    const resultsUrl = `${emu.baseUrl}/emulator/projects/${DEMO_PROJECT_ID}/results?job=${encodeURIComponent(job.id)}`;
    const outcome = await waitForJob(labeling, job.id, {
      timeoutMs: 60_000,
      onProgress: (j) => out(`progress  ${String(j.progress).padStart(3)}% ${j.status}`),
    });
    if (outcome.outcome !== 'delivered') {
      const why = outcome.outcome === 'failed' ? outcome.errors.map((e) => e.stack).join('; ') : outcome.outcome;
      out(`demo failed: job ${job.id} ended ${outcome.outcome}: ${why}`);
      out(resultsLine(resultsUrl, options.keepUntil));
      await keepUp(options.keepUntil, emu, out);
      return 1;
    }
    out(`status    ${outcome.job.status}`);

    const response = await fetch(`${emu.baseUrl}/emulator/projects/${DEMO_PROJECT_ID}/labels`, {
      headers: { authorization: `Bearer ${emu.token}` },
    });
    const stored = (await response.json()) as {
      copies: { documents: { id: string; lines: { text: string; entities: { label: string; start_char: number; end_char: number }[] }[] }[] }[];
    };
    const docs = stored.copies[0]?.documents ?? [];
    for (const doc of docs) {
      out(`labels    ${doc.id}: ${doc.lines.reduce((n, l) => n + l.entities.length, 0)}`);
    }
    const examples = docs.flatMap((d) => d.lines).filter((l) => l.entities.length > 0).slice(0, 3);
    for (const line of examples) out(`  ${mark(line.text, line.entities)}`);
    out(resultsLine(resultsUrl, options.keepUntil));
    await keepUp(options.keepUntil, emu, out);
    return 0;
  } catch (error) {
    out(`demo failed: ${isLabelkitError(error) || error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    client.current?.close();
    await model?.close();
    await emu?.close();
  }
}
