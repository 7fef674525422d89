import { describe, expectTypeOf, it } from 'vitest';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { TypedDocumentNode as UrqlTypedDocumentNode } from '@urql/core';
import { GetCabinetLabelSetsByIdDocument } from 'labelkit/documents';
import type { GetCabinetLabelSetsByIdQuery, GetCabinetLabelSetsByIdQueryVariables } from 'labelkit/documents';
import * as labelsDocuments from 'labelkit/documents/labels';
import * as tagsDocuments from 'labelkit/documents';
import { autoLabelMany } from '../../src/bulk/index.js';
import type { AutoLabelManyOptions, AutoLabelManyResult } from '../../src/bulk/index.js';
import {
  clientCredentials,
  createLabelingClient,
  getCabinet,
  getJobs,
  getLabelSets,
  refreshingToken,
  startAutoLabel,
  waitForJob,
  type AuthSource,
  type TokenTimeoutOptions,
  type Job,
  type JobOutcome,
  type LabelItem,
  type LabelSet,
  type Role,
  type TypedDocumentNode as LabelkitTypedDocumentNode,
} from '../../src/client/index.js';
import { buildLabelTree } from '../../src/labels/index.js';
import type { LabelNode, LabelTree } from '../../src/labels/index.js';
import type { GraphQLRequestError, JobTimeoutError, NetworkError, ProtocolError, ValidationError } from '../../src/client/errors.js';
import {
  isLabelkitError,
  validateAutoLabelInput,
  VERSION,
  type AutoLabelInput,
  type LabelingClient,
  type CallOptions,
  type ErrorCode,
  type LabelingClientOptions,
  type LabelkitError,
  type AnyLabelkitError,
  type GraphQLErrorEntry,
  type ValidationProblem,
  type WaitOptions,
} from '../../src/client/index.js';

const client = createLabelingClient({ url: 'http://127.0.0.1/graphql', token: 't' });

describe('public types', () => {
  it('names labels as labels, whatever the service calls them', () => {
    expectTypeOf<LabelItem>().toEqualTypeOf<{ id: string; parentId: string | null; labelName: string; color: string | null; desc: string | null }>();
    expectTypeOf<LabelSet>().toEqualTypeOf<{
      id: string;
      index: number;
      name: string;
      signature: string | null;
      labelItems: LabelItem[];
    }>();
  });

  it('types the methods from the generated documents', () => {
    expectTypeOf(getCabinet).parameter(2).toEqualTypeOf<Role>();
    expectTypeOf(getLabelSets).returns.resolves.toEqualTypeOf<LabelSet[]>();
    expectTypeOf(getJobs).returns.resolves.toEqualTypeOf<(Job | null)[]>();
    expectTypeOf(waitForJob).returns.resolves.toEqualTypeOf<JobOutcome>();
    expectTypeOf(startAutoLabel).returns.resolves.toEqualTypeOf<{ id: string; status: Job['status']; progress: number }>();
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
    expectTypeOf(GetCabinetLabelSetsByIdDocument).toMatchTypeOf<
      UrqlTypedDocumentNode<GetCabinetLabelSetsByIdQuery, GetCabinetLabelSetsByIdQueryVariables>
    >();
    // Typed by labelkit's own TypedDocumentNode, which stays typed where graphql is not installed.
    expectTypeOf(GetCabinetLabelSetsByIdDocument).toEqualTypeOf<
      LabelkitTypedDocumentNode<GetCabinetLabelSetsByIdQuery, GetCabinetLabelSetsByIdQueryVariables>
    >();
  });

  it('gives the renamed generation the same export names and result types as today\'s', () => {
    expectTypeOf<keyof typeof labelsDocuments>().toEqualTypeOf<keyof typeof tagsDocuments>();
    expectTypeOf(labelsDocuments.GetCabinetLabelSetsByIdDocument).toEqualTypeOf(tagsDocuments.GetCabinetLabelSetsByIdDocument);
    expectTypeOf<labelsDocuments.GetCabinetLabelSetsByIdQuery>().toEqualTypeOf<tagsDocuments.GetCabinetLabelSetsByIdQuery>();
    expectTypeOf(labelsDocuments.GetJobsDocument).toEqualTypeOf(tagsDocuments.GetJobsDocument);
  });

  it('tells the service URL of a client, read-only', () => {
    expectTypeOf(client.url).toEqualTypeOf<string>();
    // @ts-expect-error the URL is read-only
    client.url = 'http://127.0.0.1/other';
  });
});

describe('options, errors and helpers', () => {
  it('accepts each kind of credentials and the tuning options', () => {
    expectTypeOf(createLabelingClient).parameter(0).toMatchTypeOf<LabelingClientOptions>();
    expectTypeOf<{ url: string; token: string }>().toMatchTypeOf<LabelingClientOptions>();
    expectTypeOf<{ url: string; auth: AuthSource }>().toMatchTypeOf<LabelingClientOptions>();
    expectTypeOf(refreshingToken(async () => 't')).toEqualTypeOf<AuthSource>();
    expectTypeOf(clientCredentials({ clientId: 'id', clientSecret: 's' })).toEqualTypeOf<AuthSource>();
    expectTypeOf<{ url: string; auth: { token: string } }>().not.toMatchTypeOf<LabelingClientOptions>();
    expectTypeOf<{ url: number }>().not.toMatchTypeOf<LabelingClientOptions>();
    expectTypeOf<CallOptions>().toEqualTypeOf<{ signal?: AbortSignal; timeoutMs?: number }>();
    expectTypeOf<WaitOptions['onProgress']>().toEqualTypeOf<((job: Job) => void) | undefined>();
  });

  it('takes the service input type for startAutoLabel, with serviceProvider optional', () => {
    expectTypeOf<AutoLabelInput['targetAPI']>().toEqualTypeOf<{ endpoint: string; secretKey: string }>();
    expectTypeOf<{ numberOfFilesPerRequest: number }>().toMatchTypeOf<AutoLabelInput['options']>();
    expectTypeOf(startAutoLabel).parameter(2).toMatchTypeOf<{ allowInsecureEndpoint?: boolean } | undefined>();
  });

  it('runs many projects as a function of a client, not as a method of it', () => {
    expectTypeOf(autoLabelMany).parameters.toEqualTypeOf<[LabelingClient, AutoLabelInput[], (AutoLabelManyOptions | undefined)?]>();
    expectTypeOf(autoLabelMany).returns.toEqualTypeOf<Promise<AutoLabelManyResult>>();
    expectTypeOf<LabelingClient>().not.toHaveProperty('autoLabelMany');
  });

  it('types the error family and its guard', () => {
    expectTypeOf<ErrorCode>().toEqualTypeOf<
      'VALIDATION' | 'AUTH' | 'NETWORK' | 'TIMEOUT' | 'ABORTED' | 'GRAPHQL' | 'BAD_RESPONSE' | 'JOB_FAILED' | 'JOB_TIMEOUT' | 'JOB_NOT_FOUND' | 'LABEL_SET'
    >();
    expectTypeOf<ValidationError['problems']>().toEqualTypeOf<ValidationProblem[]>();
    expectTypeOf<NetworkError['mutationOutcomeUnknown']>().toEqualTypeOf<boolean>();
    expectTypeOf<ProtocolError['mutationOutcomeUnknown']>().toEqualTypeOf<boolean>();
    expectTypeOf<LabelkitError['phase']>().toEqualTypeOf<'token' | undefined>();
    expectTypeOf<TokenTimeoutOptions['tokenTimeoutMs']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<GraphQLRequestError['graphQLErrors'][number]['path']>().toEqualTypeOf<ReadonlyArray<string | number> | undefined>();
    expectTypeOf<JobTimeoutError['job']>().toEqualTypeOf<Job | null>();
    expectTypeOf(isLabelkitError).guards.toEqualTypeOf<AnyLabelkitError>();
  });

  it('narrows an error by its code to the fields that code carries, without a cast', () => {
    const error: unknown = new Error('x');
    if (!isLabelkitError(error)) return;
    if (error.code === 'JOB_FAILED') expectTypeOf(error.job).toEqualTypeOf<Job>();
    if (error.code === 'VALIDATION') expectTypeOf(error.problems).toEqualTypeOf<ValidationProblem[]>();
    if (error.code === 'NETWORK' || error.code === 'TIMEOUT') expectTypeOf(error.mutationOutcomeUnknown).toEqualTypeOf<boolean>();
    if (error.code === 'BAD_RESPONSE') expectTypeOf(error.mutationOutcomeUnknown).toEqualTypeOf<boolean>();
    if (error.code === 'GRAPHQL') expectTypeOf(error.graphQLErrors).toEqualTypeOf<GraphQLErrorEntry[]>();
    if (error.code === 'JOB_TIMEOUT') expectTypeOf(error.job).toEqualTypeOf<Job | null>();
    if (error.code === 'LABEL_SET') expectTypeOf(error.labelSetId).toEqualTypeOf<string>();
    // @ts-expect-error an AUTH error has no job
    void (error.code === 'AUTH' && error.job);
  });

  it('types the label tree and validation helpers', () => {
    expectTypeOf(buildLabelTree).parameter(0).toEqualTypeOf<LabelSet>();
    expectTypeOf(buildLabelTree).returns.toEqualTypeOf<LabelTree>();
    expectTypeOf<LabelTree['idByName']>().toEqualTypeOf<Map<string, string>>();
    expectTypeOf<LabelNode['children']>().toEqualTypeOf<LabelNode[]>();
    expectTypeOf(validateAutoLabelInput).parameter(0).toEqualTypeOf<unknown>();
    expectTypeOf(validateAutoLabelInput).returns.toEqualTypeOf<ValidationProblem[]>();
    expectTypeOf(VERSION).toEqualTypeOf<string>();
  });
});

describe('client.request', () => {
  it('infers data and variables from the document', async () => {
    const data = await client.request(tagsDocuments.GetCabinetDocument, { projectId: 'p', role: 'LABELER' });
    expectTypeOf(data).toEqualTypeOf<tagsDocuments.GetCabinetQuery>();
    const sets = await client.request(labelsDocuments.GetCabinetLabelSetsByIdDocument, { cabinetId: 'c' }, { timeoutMs: 1_000 });
    expectTypeOf(sets.getCabinetLabelSetsById[0]!.labelItems[0]!.labelName).toEqualTypeOf<string>();
    // @ts-expect-error a wrong variable is a compile error
    await client.request(tagsDocuments.GetCabinetDocument, { projectId: 'p', role: 'OWNER' });
    // @ts-expect-error so is a missing one
    await client.request(tagsDocuments.GetCabinetDocument, { projectId: 'p' });
    // @ts-expect-error and leaving out the variables of an operation that has some
    await client.request(tagsDocuments.GetJobDocument);
    // @ts-expect-error a field the document does not select is a compile error
    void data.getCabinet.name;
  });
});
