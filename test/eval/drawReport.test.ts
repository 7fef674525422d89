// An evaluation's report is drawn in one room, src/eval/drawReport.ts: what `labelkit eval` prints
// as text and as markdown is exactly textReport's and markdownReport's lines for the report that
// --json prints, and the flags that shape it (--scheme, --fail-under, --format) are read once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { EXIT } from '../../src/cli/exitCodes.js';
import { markdownReport, textReport } from '../../src/eval/index.js';
import type { EvalReport } from '../../src/eval/index.js';
import { argv, fakeIo } from '../support/fakeIo.js';
import { MODEL, PROJECT, startEvalFixture } from '../support/evalFixture.js';

let fixture: Awaited<ReturnType<typeof startEvalFixture>>;

async function cli(...args: string[]) {
  const io = fakeIo({ LABELKIT_URL: fixture.emu.url, LABELKIT_TOKEN: fixture.emu.token });
  const code = await main(argv('eval', '--project', PROJECT, '--labeler', MODEL, '--ci', '--seed', '7', '--resamples', '200', ...args), io);
  return { code, out: io.out(), err: io.err() };
}

beforeAll(async () => {
  fixture = await startEvalFixture();
}, 30_000);

afterAll(async () => {
  await fixture?.close();
});

describe('the report of labelkit eval, drawn by src/eval', () => {
  it('prints textReport and markdownReport of the report --json prints, the scheme and the gate read from the flags once', async () => {
    const json = await cli('--json');
    expect(json.code).toBe(EXIT.ok);
    const report = JSON.parse(json.out) as EvalReport;
    const text = await cli('--scheme', 'PARTIAL', '--fail-under', '0.9');
    expect(text.out).toBe(`${textReport(report, 'partial').join('\n')}\n`);
    expect(text.out).toContain('Scheme partial (SemEval-2013 9.1, as nervaluate; a partial match counts half):');
    expect(text.out).toContain('F1 95 % interval: ');
    expect(text).toMatchObject({ code: EXIT.f1BelowThreshold, err: 'labelkit: micro F1 0.400 is under --fail-under 0.9\n' });
    const markdown = await cli('--format', 'markdown');
    expect(markdown.out).toBe(`${markdownReport(report).join('\n')}\n`);
  });
});
