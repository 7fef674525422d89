import { describe, expectTypeOf, it } from 'vitest';
import { appendLabelItems, createLabelingClient, createLabelSet, deleteLabelSet, getProjectLabelSets, updateLabelSet } from '../../src/client/index.js';
import type { AppendLabelSetLabelItemsMutation, CreateLabelSetMutation, UpdateProjectLabelSetMutation } from '../../generated/tags/graphql.js';
import type {
  CallOptions,
  LabelingClient,
  LabelItem,
  LabelItemInput,
  LabelItemsAppendInput,
  LabelSet,
  LabelSetCreateInput,
  LabelSetUpdateInput,
  NewLabelItemInput,
} from '../../src/client/index.js';

const client = createLabelingClient({ url: 'http://127.0.0.1/graphql', token: 't' });

// The label-set writes' public shapes, in label words whatever the service calls them.
describe('the label-set write methods', () => {
  it('take label items in label words; an appended item has no parent', () => {
    expectTypeOf<LabelItemInput>().toEqualTypeOf<{ id: string; parentId?: string | null; labelName: string; color?: string | null; desc?: string | null }>();
    expectTypeOf<NewLabelItemInput>().toEqualTypeOf<{ id?: string; labelName: string; color?: string | null; desc?: string | null }>();
    expectTypeOf<NewLabelItemInput>().not.toHaveProperty('parentId');
  });

  it('have the signatures of the issue', () => {
    expectTypeOf(createLabelSet).toEqualTypeOf<(client: Pick<LabelingClient, 'request'>, projectId: string, input: LabelSetCreateInput, options?: CallOptions) => Promise<LabelSet>>();
    expectTypeOf<LabelSetCreateInput>().toEqualTypeOf<{ index: number; name: string; labelItems: LabelItemInput[]; arrowLabelRequired?: boolean }>();
    expectTypeOf(updateLabelSet).toEqualTypeOf<(client: Pick<LabelingClient, 'request'>, input: LabelSetUpdateInput, options?: CallOptions) => Promise<LabelSet>>();
    expectTypeOf<LabelSetUpdateInput>().toEqualTypeOf<{ id: string; projectId: string; labelSetSignature?: string; name?: string; labelItems?: LabelItemInput[] }>();
    expectTypeOf(appendLabelItems).toEqualTypeOf<(client: Pick<LabelingClient, 'request'>, input: LabelItemsAppendInput, options?: CallOptions) => Promise<LabelItem[]>>();
    expectTypeOf<LabelItemsAppendInput>().toEqualTypeOf<{ labelSetId: string; labelSetSignature?: string; labelItems: NewLabelItemInput[] }>();
    expectTypeOf(deleteLabelSet).toEqualTypeOf<(client: Pick<LabelingClient, 'request'>, id: string, options?: CallOptions) => Promise<string[]>>();
  });

  it('answer what the label-set query reads: a write selects the same fields', () => {
    expectTypeOf<CreateLabelSetMutation['createLabelSet']>().toEqualTypeOf<LabelSet>();
    expectTypeOf<UpdateProjectLabelSetMutation['updateProjectLabelSet']>().toEqualTypeOf<LabelSet>();
    expectTypeOf<NonNullable<AppendLabelSetLabelItemsMutation['appendLabelSetLabelItems']>[number]>().toEqualTypeOf<LabelItem>();
  });

  it('compile the README example as printed', async () => {
    const [set] = await getProjectLabelSets(client, 'PROJECT_ID', 'LABELER');
    // Add labels at the top of the set; the answer holds them with the ids the service generated.
    const added = await appendLabelItems(client, { labelSetId: set.id, labelSetSignature: set.signature ?? undefined,
      labelItems: [{ labelName: 'EVENT', color: '#a855f7' }] });
    // Rename a label: keep its id, and the labels applied with it stay.
    await updateLabelSet(client, { id: set.id, projectId: 'PROJECT_ID',
      labelItems: set.labelItems.map((i) => (i.labelName === 'PERSON' ? { ...i, labelName: 'HUMAN' } : i)) });
    expectTypeOf(added).toEqualTypeOf<LabelItem[]>();
  });
});
