import { describe, expectTypeOf, it } from 'vitest';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import {
  createLabelingClient,
  GetCabinetLabelSetsByIdDocument,
  type Job,
  type JobOutcome,
  type LabelItem,
  type LabelSet,
  type Role,
} from '../../src/client/index.js';
import type { GetCabinetLabelSetsByIdQuery, GetCabinetLabelSetsByIdQueryVariables } from '../../src/client/index.js';

const client = createLabelingClient({ url: 'http://127.0.0.1/graphql', token: 't' });

describe('public types', () => {
  it('names labels as labels, whatever the service calls them', () => {
    expectTypeOf<LabelItem>().toEqualTypeOf<{ id: string; parentId: string | null; labelName: string; color: string | null }>();
    expectTypeOf<LabelSet>().toEqualTypeOf<{
      id: string;
      index: number;
      name: string;
      signature: string | null;
      labelItems: LabelItem[];
    }>();
  });

  it('types the methods from the generated documents', () => {
    expectTypeOf(client.getCabinet).parameter(1).toEqualTypeOf<Role>();
    expectTypeOf(client.getLabelSets).returns.resolves.toEqualTypeOf<LabelSet[]>();
    expectTypeOf(client.getJobs).returns.resolves.toEqualTypeOf<(Job | null)[]>();
    expectTypeOf(client.waitForJob).returns.resolves.toEqualTypeOf<JobOutcome>();
    expectTypeOf(client.startAutoLabel).returns.resolves.toEqualTypeOf<{ id: string; status: Job['status']; progress: number }>();
  });

  it('narrows a job outcome by its tag', () => {
    const outcome = {} as JobOutcome;
    if (outcome.outcome === 'failed') expectTypeOf(outcome.errors).toEqualTypeOf<Job['errors']>();
    if (outcome.outcome === 'timed-out') expectTypeOf(outcome.job).toEqualTypeOf<Job | null>();
  });

  it('exports documents usable with any TypedDocumentNode client', () => {
    expectTypeOf(GetCabinetLabelSetsByIdDocument).toMatchTypeOf<
      TypedDocumentNode<GetCabinetLabelSetsByIdQuery, GetCabinetLabelSetsByIdQueryVariables>
    >();
  });
});
