import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLabelingClient, getLabelSets } from '../../src/client/index.js';
import { GraphQLRequestError, ValidationError } from '../../src/client/errors.js';
import type { LabelingClient, LabelingClientOptions, SchemaChangeEvent } from '../../src/client/index.js';
import { renamedFieldMessage } from '../../src/client/renameSwitch.js';
import { startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';

const CABINET = 'demo-project:labeler';

let emu: RunningEmulator | undefined;
let client: LabelingClient | undefined;
afterEach(async () => {
  client?.close();
  await emu?.close();
  emu = client = undefined;
});

/** An emulator in one generation and a client that records the label-set queries it sends. */
async function setUp(generation: 'tags' | 'labels', options: Partial<LabelingClientOptions> = {}, demoProjects = 0) {
  emu = await startEmulator({ schemaGeneration: generation, demoProjects });
  const queries: string[] = [];
  const fetchFn: typeof fetch = (input, init) => {
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { operationName: string; query: string }) : undefined;
    if (body?.operationName === 'getCabinetLabelSetsById') queries.push(body.query);
    return fetch(input, init);
  };
  const onSchemaChange = vi.fn<(event: SchemaChangeEvent) => void>();
  client = createLabelingClient({ url: emu.url, token: emu.token, fetch: fetchFn, onSchemaChange, ...options });
  return { emu, client, queries, onSchemaChange };
}

describe('createLabelingClient schemaGeneration', () => {
  it('sends the renamed document from the start when schemaGeneration is labels', async () => {
    const { client, queries, onSchemaChange } = await setUp('labels', { schemaGeneration: 'labels' });
    const sets = await getLabelSets(client, CABINET);
    expect(sets[0]!.labelItems.map((i) => i.labelName)).toContain('PERSON');
    expect(queries).toHaveLength(1);
    expect(queries[0]).not.toMatch(/tag/);
    expect(onSchemaChange).not.toHaveBeenCalled();
  });

  it('reads the same label sets in both generations', async () => {
    const tags = await setUp('tags');
    const fromTags = await getLabelSets(tags.client, CABINET);
    client!.close();
    await emu!.close();
    const labels = await setUp('labels', { schemaGeneration: 'labels' });
    expect(await getLabelSets(labels.client, CABINET)).toEqual(fromTags);
  });

  it('switches once and reports once when several label-set queries are refused together', async () => {
    // Three cabinets, so that three queries are in flight (identical ones would share one request, as urql deduplicates).
    const { client, queries, onSchemaChange } = await setUp('labels', {}, 2);
    const cabinets = [CABINET, 'demo-project-1:labeler', 'demo-project-2:reviewer'];
    const results = await Promise.all(cabinets.map((id) => getLabelSets(client, id)));
    for (const sets of results) expect(sets[0]!.labelItems.map((i) => i.labelName)).toContain('PERSON');
    expect(queries.filter((q) => /tagItems/.test(q))).toHaveLength(3);
    expect(queries.filter((q) => !/tagItems/.test(q))).toHaveLength(3);
    expect(onSchemaChange).toHaveBeenCalledTimes(1);
    expect(await getLabelSets(client, CABINET)).toEqual(results[0]);
    expect(queries).toHaveLength(7);
  });

  it('rejects without switching back when a labels client meets a service that still says tags', async () => {
    const { client, queries, onSchemaChange } = await setUp('tags', { schemaGeneration: 'labels' });
    const error = await getLabelSets(client, CABINET).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GraphQLRequestError);
    expect((error as Error).message).toMatch(/Cannot query field "labelItems"/);
    expect(queries).toHaveLength(1);
    expect(onSchemaChange).not.toHaveBeenCalled();
  });

  it('does not re-send when the service refuses the query for another reason', async () => {
    const { client, queries, onSchemaChange } = await setUp('tags');
    await expect(getLabelSets(client, 'no-such-cabinet')).rejects.toThrow(/no cabinet has the id/);
    expect(queries).toHaveLength(1);
    expect(onSchemaChange).not.toHaveBeenCalled();
  });

  it('refuses an unknown schemaGeneration and a non-function onSchemaChange before anything is sent', () => {
    const options = { url: 'http://127.0.0.1:4000/graphql', token: 't', schemaGeneration: 'tag', onSchemaChange: 'log' } as unknown as LabelingClientOptions;
    const error = (() => {
      try {
        createLabelingClient(options);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).problems).toEqual([
      { path: 'options.schemaGeneration', message: "must be 'tags' or 'labels'" },
      { path: 'options.onSchemaChange', message: 'must be a function' },
    ]);
  });
});

describe('renamedFieldMessage', () => {
  it('finds the message that names tagItems or tagName as an unknown field', () => {
    const refused = new GraphQLRequestError([{ message: 'Cannot query field "tagName" on type "TagItem". Did you mean "labelName"?' }]);
    expect(renamedFieldMessage(refused)).toMatch(/tagName/);
    expect(renamedFieldMessage(new GraphQLRequestError([{ message: 'Unknown field tagItems on LabelSet' }]))).toMatch(/tagItems/);
  });

  it('ignores other errors, also ones that only mention a tag field', () => {
    expect(renamedFieldMessage(new GraphQLRequestError([{ message: 'tagItems is slow today' }]))).toBeUndefined();
    expect(renamedFieldMessage(new Error('Cannot query field "tagItems"'))).toBeUndefined();
  });
});
