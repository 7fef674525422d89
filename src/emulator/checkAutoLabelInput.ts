import type { AutoLabelTokenBasedProjectInput } from '../../generated/tags/resolvers.js';
import type { EmulatorStore } from './store.js';

/** One problem of the mutation's input: the field (`input.targetAPI.endpoint`) and the rule. */
export interface InputProblem {
  field: string;
  message: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Checks the input of `autoLabelTokenBasedProject` the way the service does, listing every problem.
 *
 * @param input - the coerced GraphQL input (types already checked by GraphQL)
 * @param store - to look the project up
 * @returns every problem; empty when the job may start
 * @remarks Rules: the project exists; `labelerEmail` looks like an e-mail address;
 * `numberOfFilesPerRequest` is 0 or more; `serviceProvider`, when given, is `CUSTOM` (the only one
 * this API supports); `targetAPI.endpoint` is an absolute http(s) URL without user info;
 * `targetAPI.secretKey` is not empty. Plain http to any host is accepted: the emulator is a local
 * test server. No message repeats the secret.
 */
export function checkAutoLabelInput(input: AutoLabelTokenBasedProjectInput, store: EmulatorStore): InputProblem[] {
  const problems: InputProblem[] = [];
  const add = (field: string, message: string) => problems.push({ field: `input.${field}`, message });
  if (!store.projects.has(input.projectId)) add('projectId', `no project has the id "${input.projectId}"`);
  if (!EMAIL.test(input.labelerEmail)) add('labelerEmail', 'must be an e-mail address such as name@example.com');
  if (input.options.numberOfFilesPerRequest < 0) {
    add('options.numberOfFilesPerRequest', `must be 0 or more (0 sends all lines of a document in one request), got ${input.options.numberOfFilesPerRequest}`);
  }
  const provider = input.options.serviceProvider;
  if (provider != null && provider !== 'CUSTOM') add('options.serviceProvider', `must be CUSTOM (the only provider this API supports), got ${provider}`);
  let url: URL | undefined;
  try {
    url = new URL(input.targetAPI.endpoint);
  } catch {
    add('targetAPI.endpoint', 'must be an absolute URL such as https://models.example.com/predict');
  }
  if (url && url.protocol !== 'http:' && url.protocol !== 'https:') add('targetAPI.endpoint', `must use http or https, got ${url.protocol.slice(0, -1)}`);
  if (url && (url.username || url.password)) add('targetAPI.endpoint', 'must not hold a user name or password (the secret goes in targetAPI.secretKey)');
  if (input.targetAPI.secretKey.trim() === '') add('targetAPI.secretKey', 'must not be empty');
  return problems;
}
