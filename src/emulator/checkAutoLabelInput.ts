import type { AutoLabelTokenBasedProjectInput } from '../../generated/tags/resolvers.js';
import { autoLabelInputProblems } from '../shared/autoLabelRules.js';
import type { Problem } from '../shared/problem.js';
import type { EmulatorStore } from './store.js';

/**
 * Checks the input of `autoLabelTokenBasedProject` the way the service does, listing every problem.
 *
 * @param input - the coerced GraphQL input (types already checked by GraphQL)
 * @param store - to look the project up
 * @returns every problem; empty when the job may start
 * @remarks The rules are the client's (`src/shared/autoLabelRules.ts`, their one home), and the
 * project must exist. Plain http to any host is accepted: the emulator is a local test server. No
 * message repeats the secret.
 */
export function checkAutoLabelInput(input: AutoLabelTokenBasedProjectInput, store: EmulatorStore): Problem[] {
  const unknownProject = store.projects.has(input.projectId) ? [] : [{ path: 'input.projectId', message: `no project has the id "${input.projectId}"` }];
  return [...unknownProject, ...autoLabelInputProblems(input, { allowInsecureEndpoint: true })];
}
