import { print } from 'graphql';
import type { TypedDocumentNode } from '@urql/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GetCellsDocument, GetLabelsPaginatedDocument, GetProjectCabinetsDocument, GetProjectsFinalReportDocument } from '../../generated/tags/graphql.js';
import { EmulatorDataError, startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { startModelServer } from '../../src/model/index.js';
import type { RunningModelServer, SpanEntity, SpanRequest } from '../../src/model/index.js';

const SECRET = 'reads-model-secret';
const P = 'reads';
/** Lines of d1; `Lovelace` has 8 characters (charId 0 to 7), `Hopper,` is `Hopper` and `,`. */
const D1 = ['Ada Lovelace met Acme Corp. today', 'Nothing here.', 'Grace   Hopper, again'];
const D2_LINES = 250;

/** What the fixture model answers per document and line: character spans, some inside tokens. */
let predictions: (doc: string, line: number) => SpanEntity[] = () => [];
const fixtureModel = (request: SpanRequest) => ({
  id: request.id,
  documents: request.documents.map((d) => ({ id: d.id, labels: d.sentences.map((s) => ({ id: s.id, entities: predictions(d.id, s.id) })) })),
});
const goodPredictions = (doc: string, line: number): SpanEntity[] => {
  if (doc === 'd2') return [{ label: 'person', start_char: 0, end_char: 4, confidence_score: 0.5 }];
  if (line === 0) {
    return [
      { label: 'PERSON', start_char: 2, end_char: 7 }, // "a Lov": snapped to "Ada Lovelace"
      { label: 'ORG', start_char: 17, end_char: 26, confidence_score: 0.75 }, // "Acme Corp", without the "."
      { label: 'PERSON', start_char: 0, end_char: 3, layer: 1 }, // the PERSON of set 1, not set 0's
    ];
  }
  return line === 2
    ? [
        { label: 'PERSON', start_char: 0, end_char: 14 }, // "Grace   Hopper"
        { label: 'MISC', start_char: 14, end_char: 15, layer: 1 }, // ","
      ]
    : [];
};

let emu: RunningEmulator;
let model: RunningModelServer;

async function gql<R, V>(document: TypedDocumentNode<R, V> | string, variables: V): Promise<{ data?: R; errors?: { message: string; extensions?: Record<string, unknown> }[] }> {
  const res = await fetch(emu.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${emu.token}` },
    body: JSON.stringify({ query: typeof document === 'string' ? document : print(document), variables }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { data?: R; errors?: { message: string; extensions?: Record<string, unknown> }[] };
}

async function data<R, V>(document: TypedDocumentNode<R, V>, variables: V): Promise<R> {
  const answer = await gql(document, variables);
  expect(answer.errors).toBeUndefined();
  return answer.data!;
}

const START = `mutation Start($input: AutoLabelTokenBasedProjectInput!) { autoLabelTokenBasedProject(input: $input) { id } }`;

/** Runs a job over HTTP and waits for its end; returns the job as stored. */
async function runJob(labelerEmail: string, role: 'LABELER' | 'REVIEWER' = 'LABELER') {
  const answer = await gql<{ autoLabelTokenBasedProject: { id: string } }, unknown>(START, {
    input: { projectId: P, labelerEmail, role, options: { numberOfFilesPerRequest: 0 }, targetAPI: { endpoint: model.url, secretKey: SECRET } },
  });
  expect(answer.errors).toBeUndefined();
  const job = emu.emulator.store.jobs.get(answer.data!.autoLabelTokenBasedProject.id)!;
  await expect.poll(() => job.status, { timeout: 10_000 }).toMatch(/DELIVERED|FAILED/);
  return job;
}

/** Every label of a document copy, paging as the vendor does; also returns each page's size. */
async function allLabels(documentId: string, take = 100) {
  const sizes: number[] = [];
  const nodes: unknown[] = [];
  let input: { page?: { skip: number; take: number }; cursor?: string } = { page: { skip: 0, take } };
  for (;;) {
    const { getLabelsPaginated: page } = await data(GetLabelsPaginatedDocument, { documentId, input });
    sizes.push(page.nodes.length);
    nodes.push(...page.nodes);
    if (page.pageInfo.nextCursor === null) return { nodes, sizes, totalCount: page.totalCount };
    input = { cursor: page.pageInfo.nextCursor };
  }
}

beforeAll(async () => {
  emu = await startEmulator({ demoProject: false, model: { retries: 0 } });
  model = await startModelServer({ secretKey: SECRET, predict: fixtureModel });
  emu.emulator.store.addProject({
    id: P,
    name: 'Reads',
    labelSets: [
      { id: 's0', name: 'Entities', labels: [{ id: 'p', name: 'PERSON' }, { id: 'o', name: 'ORG' }] },
      { id: 's1', name: 'Extra', labels: [{ id: 'xp', name: 'PERSON' }, { id: 'm', name: 'MISC' }] },
    ],
    documents: [
      { id: 'd1', name: 'd1.txt', lines: D1 },
      { id: 'd2', name: 'd2.txt', lines: Array.from({ length: D2_LINES }, (_, i) => `Name ${i}`) },
    ],
  });
});

afterAll(async () => {
  await emu?.close();
  await model?.close();
});

describe('getProjectCabinets', () => {
  it('lists the reviewer cabinet alone before any job, then one cabinet per labeler, each with its own document ids', async () => {
    const before = await data(GetProjectCabinetsDocument, { projectId: P });
    expect(before.getProjectCabinets).toEqual([
      {
        id: 'reads:reviewer',
        role: 'REVIEWER',
        status: 'IN_PROGRESS',
        documents: [
          { id: 'reads:reviewer:d1', originId: 'd1', fileName: 'd1.txt', isCompleted: false },
          { id: 'reads:reviewer:d2', originId: 'd2', fileName: 'd2.txt', isCompleted: false },
        ],
      },
    ]);
    predictions = goodPredictions;
    expect((await runJob('ann@example.com')).status).toBe('DELIVERED');
    const after = await data(GetProjectCabinetsDocument, { projectId: P });
    expect(after.getProjectCabinets.map((c) => [c.id, c.role, c.documents.map((d) => d.id)])).toEqual([
      ['reads:labeler-1', 'LABELER', ['reads:labeler-1:d1', 'reads:labeler-1:d2']],
      ['reads:reviewer', 'REVIEWER', ['reads:reviewer:d1', 'reads:reviewer:d2']],
    ]);
  });

  it('gives the label sets of the project for the cabinet id of a copy, and NOT_FOUND for a copy that does not exist', async () => {
    const sets = await gql<{ getCabinetLabelSetsById: { id: string }[] }, unknown>('query S($id: ID!) { getCabinetLabelSetsById(cabinetId: $id) { id } }', { id: 'reads:labeler-1' });
    expect(sets.data?.getCabinetLabelSetsById.map((s) => s.id)).toEqual(['s0', 's1']);
    const none = await gql('query S($id: ID!) { getCabinetLabelSetsById(cabinetId: $id) { id } }', { id: 'reads:labeler-7' });
    expect(none.errors).toMatchObject([{ extensions: { code: 'NOT_FOUND' } }]);
  });

  it('answers NOT_FOUND for an unknown project', async () => {
    const answer = await gql(GetProjectCabinetsDocument, { projectId: 'nope' });
    expect(answer.errors).toMatchObject([{ message: 'no project has the id "nope"', extensions: { code: 'NOT_FOUND' } }]);
  });
});

describe('getLabelsPaginated', () => {
  it('serves the labels by token position: snapped to whole tokens, end inclusive, item id and layer of the set the entity named', async () => {
    const { nodes, sizes, totalCount } = await allLabels('reads:labeler-1:d1');
    expect([sizes, totalCount]).toEqual([[5], 5]);
    const label = (l: string, layer: number, line: number, s: number, e: number, endChar: number, confidenceScore: number | null = null) => ({
      id: `${l}:${layer}:${line}:${s}:0:${line}:${e}:${endChar}:0`,
      l,
      layer,
      start: { sentenceId: line, tokenId: s, charId: 0 },
      end: { sentenceId: line, tokenId: e, charId: endChar },
      hashCode: expect.stringMatching(/^[0-9a-f]{8}$/),
      labeledBy: 'LABELER',
      confidenceScore,
      deleted: false,
      documentId: 'reads:labeler-1:d1',
      rejectedByUserId: null,
    });
    expect(nodes).toEqual([
      label('p', 0, 0, 0, 1, 7), // "a Lov" → Ada Lovelace: "Lovelace" ends at charId 7
      label('o', 0, 0, 3, 4, 3, 0.75), // Acme Corp (tokens 3-4), the "." (token 5) left out
      label('xp', 1, 0, 0, 0, 2), // PERSON with layer 1: set 1's item, not the first set's
      label('p', 0, 2, 0, 1, 5), // "Grace   Hopper"
      label('m', 1, 2, 2, 2, 0), // "," is a token of its own
    ]);
  });

  it('pages as the vendor does: page first, then the cursor until it is null, each label once and in line order', async () => {
    const { nodes, sizes, totalCount } = await allLabels('reads:labeler-1:d2');
    expect(sizes).toEqual([100, 100, 50]);
    expect(totalCount).toBe(D2_LINES);
    expect((nodes as { start: { sentenceId: number } }[]).map((n) => n.start.sentenceId)).toEqual(Array.from({ length: D2_LINES }, (_, i) => i));
    expect((nodes as { confidenceScore: number }[]).every((n) => n.confidenceScore === 0.5)).toBe(true);
    // A page size that divides the total ends with a null cursor on the last full page.
    expect((await allLabels('reads:labeler-1:d2', 125)).sizes).toEqual([125, 125]);
  });

  it('goes on from a cursor after the document changed, from its offset', async () => {
    const first = (await data(GetLabelsPaginatedDocument, { documentId: 'reads:labeler-1:d2', input: { page: { skip: 0, take: 100 } } })).getLabelsPaginated;
    emu.emulator.store.setLineLabels(P, { labelerEmail: 'ann@example.com', role: 'LABELER' }, 'd2', 0, []); // one label fewer
    const next = (await data(GetLabelsPaginatedDocument, { documentId: 'reads:labeler-1:d2', input: { cursor: first.pageInfo.nextCursor } })).getLabelsPaginated;
    expect(next.totalCount).toBe(D2_LINES - 1);
    expect((next.nodes[0] as { start: { sentenceId: number } }).start.sentenceId).toBe(101); // offset 100 of lines 1…249
    emu.emulator.store.setLineLabels(P, { labelerEmail: 'ann@example.com', role: 'LABELER' }, 'd2', 0, [{ label: 'PERSON', start_char: 0, end_char: 4, confidence_score: 0.5 }]);
  });

  it('answers an empty first page for a copy nothing was written into, and NOT_FOUND for a document no cabinet has', async () => {
    const empty = await data(GetLabelsPaginatedDocument, { documentId: 'reads:labeler:d1', input: { page: { skip: 0, take: 100 } } });
    expect(empty.getLabelsPaginated).toEqual({ nodes: [], pageInfo: { nextCursor: null }, totalCount: 0 });
    for (const documentId of ['reads:labeler-9:d1', 'reads:reviewer:nope', 'd1']) {
      const answer = await gql(GetLabelsPaginatedDocument, { documentId, input: {} });
      expect(answer.errors).toMatchObject([{ message: `no cabinet has a document with the id "${documentId}"`, extensions: { code: 'NOT_FOUND' } }]);
    }
  });

  it('refuses a bad page or cursor with every problem at once', async () => {
    const page = (await data(GetLabelsPaginatedDocument, { documentId: 'reads:labeler-1:d2', input: { page: { skip: 0, take: 100 } } })).getLabelsPaginated;
    const both = await gql(GetLabelsPaginatedDocument, { documentId: 'reads:labeler-1:d2', input: { cursor: page.pageInfo.nextCursor, page: { skip: -1, take: 0 } } });
    expect(both.errors?.[0]?.extensions).toEqual({
      code: 'BAD_USER_INPUT',
      problems: [
        { field: 'input', message: 'give cursor or page, not both' },
        { field: 'input.page.skip', message: 'must be an integer >= 0' },
        { field: 'input.page.take', message: 'must be an integer from 1 to 1000' },
      ],
    });
    const other = await gql(GetLabelsPaginatedDocument, { documentId: 'reads:labeler-1:d1', input: { cursor: page.pageInfo.nextCursor } });
    expect(other.errors?.[0]?.extensions).toEqual({ code: 'BAD_USER_INPUT', problems: [{ field: 'input.cursor', message: 'was made for another document' }] });
    const garbage = await gql(GetLabelsPaginatedDocument, { documentId: 'reads:labeler-1:d1', input: { cursor: 'not-a-cursor' } });
    expect(garbage.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', problems: [{ field: 'input.cursor' }] });
  });
});

describe('getCells', () => {
  it('serves each line with its tokens, as the label positions count them, paged like the labels', async () => {
    const { getCells } = await data(GetCellsDocument, { documentId: 'reads:reviewer:d1', input: { page: { skip: 0, take: 2 } } });
    expect(getCells.nodes).toEqual([
      { line: 0, index: 0, content: D1[0], tokens: ['Ada', 'Lovelace', 'met', 'Acme', 'Corp', '.', 'today'], status: 'DISPLAYED' },
      { line: 1, index: 0, content: D1[1], tokens: ['Nothing', 'here', '.'], status: 'DISPLAYED' },
    ]);
    expect(getCells.totalCount).toBe(3);
    const rest = await data(GetCellsDocument, { documentId: 'reads:reviewer:d1', input: { cursor: getCells.pageInfo.nextCursor } });
    expect(rest.getCells).toEqual({ nodes: [{ line: 2, index: 0, content: D1[2], tokens: ['Grace', 'Hopper', ',', 'again'], status: 'DISPLAYED' }], pageInfo: { nextCursor: null }, totalCount: 3 });
  });
});

describe('the job runner binds and snaps, or refuses the batch', () => {
  it('fails the batch, naming the entity, when its label is not in the set its layer names, or when it spans white space only', async () => {
    predictions = (doc, line) =>
      doc === 'd1' && line === 0
        ? [
            { label: 'ORG', start_char: 17, end_char: 21, layer: 1 }, // ORG is in set 0 only
            { label: 'PERSON', start_char: 3, end_char: 4 }, // the space after "Ada"
          ]
        : [];
    const job = await runJob('bob@example.com');
    expect(job.status).toBe('FAILED');
    expect(job.errors.map((e) => e.stack)).toEqual([
      'document "d1" lines 0-2: the model\'s answer cannot be stored at documents[0].labels[0].entities[0].label: "ORG" is not a span label of label set 1 ("Extra"), the set the entity\'s layer names',
      'document "d1" lines 0-2: the model\'s answer cannot be stored at documents[0].labels[0].entities[1]: the span 3-4 holds white space only: no token to label',
    ]);
    const bob = (await data(GetProjectCabinetsDocument, { projectId: P })).getProjectCabinets.find((c) => c.id === 'reads:labeler-2')!;
    expect((await allLabels(bob.documents[0]!.id)).totalCount).toBe(0); // nothing of the failed batch
    expect((await allLabels(bob.documents[1]!.id)).totalCount).toBe(0); // d2: the model answered no labels
    predictions = goodPredictions;
  });
});

describe('the reviewer copy', () => {
  it('is one per project: REVIEWER jobs naming two e-mails write into the same cabinet', async () => {
    predictions = (doc, line) => (doc === 'd1' && line === 1 ? [{ label: 'MISC', start_char: 0, end_char: 7, layer: 1 }] : []);
    expect((await runJob('rex@example.com', 'REVIEWER')).status).toBe('DELIVERED');
    predictions = (doc, line) => (doc === 'd1' && line === 2 ? [{ label: 'PERSON', start_char: 8, end_char: 14 }] : []);
    expect((await runJob('rita@example.com', 'REVIEWER')).status).toBe('DELIVERED');
    const cabinets = (await data(GetProjectCabinetsDocument, { projectId: P })).getProjectCabinets;
    expect(cabinets.filter((c) => c.role === 'REVIEWER').map((c) => c.id)).toEqual(['reads:reviewer']);
    // The second job set every line of d1 again (a whole document per request): only its own label is left.
    const { nodes } = await allLabels('reads:reviewer:d1');
    expect(nodes).toEqual([expect.objectContaining({ l: 'p', layer: 0, start: { sentenceId: 2, tokenId: 1, charId: 0 }, labeledBy: 'REVIEWER' })]);
    expect(emu.emulator.store.labelsOf(P).map((c) => [c.labelerEmail, c.role])).toEqual([
      ['ann@example.com', 'LABELER'],
      ['bob@example.com', 'LABELER'],
      ['rita@example.com', 'REVIEWER'],
    ]);
    predictions = goodPredictions;
  });

  it('takes gold labels from a test, snapped like the model’s, keeping labeledBy and deleted, and lists every problem of bad ones', async () => {
    emu.emulator.store.setReviewLabels(P, 'd1', [
      { line: 0, start_char: 0, end_char: 12, label: 'PERSON', text: 'Ada Lovelace', labeledBy: 'AUTO' },
      { line: 0, start_char: 17, end_char: 27, label: 'org', text: 'Acme Corp.' }, // a wider boundary than the model's
      { line: 0, start_char: 0, end_char: 3, label: 'PERSON', layer: 1, deleted: true },
      { line: 0, start_char: 28, end_char: 33, label: 'MISC', layer: 1 }, // "today": the model missed it
      { line: 2, start_char: 0, end_char: 14, label: 'PERSON', labeledBy: 'CONFLICT' },
      { line: 2, start_char: 14, end_char: 15, label: 'MISC', layer: 1, rejected: true }, // the model's "," too, but rejected
    ]);
    const { nodes } = await allLabels('reads:reviewer:d1');
    type Node = { l: string; layer: number; start: { tokenId: number }; end: { tokenId: number }; labeledBy: string; deleted: boolean; rejectedByUserId: number | null };
    expect(nodes.map((n) => { const { l, layer, start, end, labeledBy, deleted, rejectedByUserId } = n as Node; return [l, layer, start.tokenId, end.tokenId, labeledBy, deleted, rejectedByUserId]; })).toEqual([
      ['p', 0, 0, 1, 'AUTO', false, null],
      ['o', 0, 3, 5, 'REVIEWER', false, null],
      ['xp', 1, 0, 0, 'REVIEWER', true, null],
      ['m', 1, 6, 6, 'REVIEWER', false, null],
      ['p', 0, 0, 1, 'CONFLICT', false, null],
      ['m', 1, 2, 2, 'REVIEWER', false, 1],
    ]);
    let error: unknown;
    try {
      emu.emulator.store.setReviewLabels(P, 'd1', [
        { line: 0, start_char: 0, end_char: 4, label: 'PERSON', text: 'Ada' },
        { line: 9, start_char: 0, end_char: 1, label: 'ORG', layer: 1 },
        { line: 1, start_char: 7, end_char: 8, label: 'PERSON', labeledBy: 'ROBOT' as never },
      ]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EmulatorDataError);
    expect((error as EmulatorDataError).problems.map((p) => `${p.path}: ${p.message}`)).toEqual([
      'labels[0].text: is "Ada" but the line has "Ada " there',
      'labels[1].line: must be a line number of the document, 0 to 2',
      'labels[1].label: "ORG" is not a span label of the label set of index 1',
      'labels[2].start_char: the span holds white space only: no token to label',
      'labels[2].labeledBy: must be one of AUTO, CONFLICT, EXTERNAL, LABELER, PRELABELED, REVIEWER',
    ]);
    expect((await allLabels('reads:reviewer:d1')).totalCount).toBe(6); // the refused gold changed nothing
  });
});

describe('getProjectsFinalReport', () => {
  it('scores each labeler copy of each document against the gold, with the labeler’s e-mail', async () => {
    const { getProjectsFinalReport: [report] } = await data(GetProjectsFinalReportDocument, { projectIds: [P] });
    expect(report!.project).toEqual({ id: P, name: 'Reads' });
    const rows = report!.documentFinalReports.map((r) => [r.cabinet.id, r.cabinet.role, r.document.id, r.document.originId, r.teamMember?.user?.email]);
    expect(rows).toEqual([
      ['reads:labeler-1', 'LABELER', 'reads:labeler-1:d1', 'd1', 'ann@example.com'],
      ['reads:labeler-1', 'LABELER', 'reads:labeler-1:d2', 'd2', 'ann@example.com'],
      ['reads:labeler-2', 'LABELER', 'reads:labeler-2:d1', 'd1', 'bob@example.com'],
      ['reads:labeler-2', 'LABELER', 'reads:labeler-2:d2', 'd2', 'bob@example.com'],
    ]);
    // ann's d1: 5 applied; gold = Ada Lovelace, "Acme Corp.", "today" (the deleted, the CONFLICT and the
    // rejected "," are not gold). Only Ada Lovelace agrees (the ORG boundary differs): precision 1/5, recall 1/3.
    expect(report!.documentFinalReports[0]!.finalReport).toEqual({ precision: 0.2, recall: 1 / 3, totalAppliedLabels: 5, totalAcceptedLabels: 1, totalRejectedLabels: 4, totalResolvedLabels: 5 });
    // d2 has no gold: nothing to accept, nothing to divide recall by.
    expect(report!.documentFinalReports[1]!.finalReport).toEqual({ precision: 0, recall: 0, totalAppliedLabels: D2_LINES, totalAcceptedLabels: 0, totalRejectedLabels: D2_LINES, totalResolvedLabels: D2_LINES });
    const unknown = await gql(GetProjectsFinalReportDocument, { projectIds: [P, 'nope'] });
    expect(unknown.errors).toMatchObject([{ message: 'no project has the id "nope"', extensions: { code: 'NOT_FOUND' } }]);
  });
});
