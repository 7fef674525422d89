/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@urql/core';
export type EmulatorAppliedLabelCountsQueryVariables = Exact<{
  projectId: string;
}>;


export type EmulatorAppliedLabelCountsQuery = { emulatorAppliedLabelCounts: Array<{ labelSetId: string, labelItemId: string, appliedLabels: number }> };


export const EmulatorAppliedLabelCountsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"EmulatorAppliedLabelCounts"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"projectId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"emulatorAppliedLabelCounts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"projectId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"projectId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"labelSetId"}},{"kind":"Field","name":{"kind":"Name","value":"labelItemId"}},{"kind":"Field","name":{"kind":"Name","value":"appliedLabels"}}]}}]}}]} as unknown as DocumentNode<EmulatorAppliedLabelCountsQuery, EmulatorAppliedLabelCountsQueryVariables>;