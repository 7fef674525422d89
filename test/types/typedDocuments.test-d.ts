// What client.request makes of the documents of both schema generations: the variables and the
// result typed to the field, never `any`. (In an app without the graphql package the documents are
// labelkit's structural type instead of graphql's DocumentNode: test/build/packInstall.test.ts
// compiles the same calls there, in a fresh app made by npm init -y.)
import { describe, expectTypeOf, it } from 'vitest';
import type { TypedDocumentNode as CoreTypedDocumentNode } from '@graphql-typed-document-node/core';
import type { TypedDocumentNode as UrqlTypedDocumentNode } from '@urql/core';
import type { DocumentShape, LabelingClient, TypedDocumentNode } from 'labelkit';
import * as tags from 'labelkit/documents';
import * as labels from 'labelkit/documents/labels';

declare const client: LabelingClient;

/** The result and the variables a document carries (its phantom `__apiType`). */
type ResultOf<D> = D extends { readonly __apiType?: (variables: never) => infer R } ? R : never;
type VariablesOf<D> = D extends { readonly __apiType?: (variables: infer V) => unknown } ? V : never;

describe('the documents of both generations', () => {
  it('carry their variables and result types, not any', () => {
    expectTypeOf<ResultOf<typeof tags.GetCabinetDocument>>().not.toBeAny();
    expectTypeOf<VariablesOf<typeof tags.GetCabinetDocument>>().not.toBeAny();
    expectTypeOf<ResultOf<typeof tags.GetCabinetDocument>>().toEqualTypeOf<tags.GetCabinetQuery>();
    expectTypeOf<VariablesOf<typeof tags.GetCabinetDocument>>().toEqualTypeOf<tags.GetCabinetQueryVariables>();
    expectTypeOf<ResultOf<typeof labels.GetCabinetLabelSetsByIdDocument>>().toEqualTypeOf<labels.GetCabinetLabelSetsByIdQuery>();
    expectTypeOf<VariablesOf<typeof labels.GetCabinetLabelSetsByIdDocument>>().toEqualTypeOf<labels.GetCabinetLabelSetsByIdQueryVariables>();
    expectTypeOf<ResultOf<typeof labels.AppendLabelSetLabelItemsDocument>>().toEqualTypeOf<labels.AppendLabelSetLabelItemsMutation>();
    expectTypeOf<VariablesOf<typeof labels.AppendLabelSetLabelItemsDocument>>().toEqualTypeOf<labels.AppendLabelSetLabelItemsMutationVariables>();
  });

  it("are labelkit's TypedDocumentNode, which urql and @graphql-typed-document-node/core clients take", () => {
    expectTypeOf(tags.GetJobsDocument).toEqualTypeOf<TypedDocumentNode<tags.GetJobsQuery, tags.GetJobsQueryVariables>>();
    expectTypeOf(labels.GetJobsDocument).toEqualTypeOf<TypedDocumentNode<labels.GetJobsQuery, labels.GetJobsQueryVariables>>();
    expectTypeOf(tags.GetJobsDocument).toMatchTypeOf<UrqlTypedDocumentNode<tags.GetJobsQuery, tags.GetJobsQueryVariables>>();
    expectTypeOf(labels.GetJobsDocument).toMatchTypeOf<CoreTypedDocumentNode<labels.GetJobsQuery, labels.GetJobsQueryVariables>>();
    // …and every document is the shape the client reads, whether graphql is installed or not.
    expectTypeOf(tags.GetJobsDocument).toMatchTypeOf<DocumentShape>();
  });
});

describe('client.request', () => {
  it('resolves with the result of the document of either generation, not any', async () => {
    const cabinet = await client.request(tags.GetCabinetDocument, { projectId: 'p', role: 'LABELER' });
    expectTypeOf(cabinet).not.toBeAny();
    expectTypeOf(cabinet).toEqualTypeOf<tags.GetCabinetQuery>();
    expectTypeOf(cabinet.getCabinet.id).toEqualTypeOf<string>();

    const today = await client.request(tags.GetCabinetLabelSetsByIdDocument, { cabinetId: 'c' });
    const renamed = await client.request(labels.GetCabinetLabelSetsByIdDocument, { cabinetId: 'c' });
    expectTypeOf(renamed).not.toBeAny();
    expectTypeOf(renamed).toEqualTypeOf(today);
    expectTypeOf(renamed.getCabinetLabelSetsById[0]!.labelItems[0]!.labelName).toEqualTypeOf<string>();

    const jobs = await client.request(labels.GetJobsDocument, { jobIds: ['j'] });
    expectTypeOf(jobs.getJobs[0]!.status).toEqualTypeOf<'QUEUED' | 'IN_PROGRESS' | 'DELIVERED' | 'FAILED' | 'NONE'>();
  });

  it('takes the variables of the document, and refuses wrong, missing and undeclared ones', async () => {
    // Each line must fail to compile: an unused @ts-expect-error is an error of this file.
    // @ts-expect-error role is a Role: LABELER or REVIEWER
    await client.request(tags.GetCabinetDocument, { projectId: 'p', role: 'OWNER' });
    // @ts-expect-error projectId is missing
    await client.request(labels.GetCabinetDocument, { role: 'LABELER' });
    // @ts-expect-error the variables are required when the operation declares a required one
    await client.request(labels.GetCabinetLabelSetsByIdDocument);
    // @ts-expect-error projectId is not a variable of the operation, even next to every one that is (NoInfer)
    await client.request(tags.GetCabinetLabelSetsByIdDocument, { cabinetId: 'c', projectId: 'p' });
    // @ts-expect-error the renamed write takes labelItems/labelName
    await client.request(labels.AppendLabelSetLabelItemsDocument, { input: { labelSetId: 's', tagItems: [{ tagName: 'X' }] } });
    await client.request(labels.AppendLabelSetLabelItemsDocument, { input: { labelSetId: 's', labelItems: [{ labelName: 'X' }] } });
    await client.request(tags.AppendLabelSetLabelItemsDocument, { input: { labelSetId: 's', tagItems: [{ tagName: 'X' }] } });
  });

  it('refuses a use of the result that the document does not select', async () => {
    const { getCabinetLabelSetsById } = await client.request(labels.GetCabinetLabelSetsByIdDocument, { cabinetId: 'c' });
    // @ts-expect-error the result says labelItems in both generations
    expectTypeOf(getCabinetLabelSetsById[0]!.tagItems).toBeUnknown();
    // @ts-expect-error an id is a string
    const id: number = getCabinetLabelSetsById[0]!.id;
    expectTypeOf(id).toBeNumber();
  });
});
