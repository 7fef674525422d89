import { autoLabelInputProblems, type AutoLabelValidationOptions } from '../shared/autoLabelRules.js';
import { labelSetIndexProblem, labelWriteProblems } from '../shared/labelItemRules.js';
import { checkId, checkNumber, checkTimingOptions, type Problem, problemUnless } from '../shared/problem.js';
import { isRecord } from '../shared/isRecord.js';
import { isHeaderToken, NOT_A_HEADER_TOKEN } from './headerToken.js';
import { ValidationError } from './errors.js';

export type { AutoLabelValidationOptions } from '../shared/autoLabelRules.js';
/** One reason why input was refused, with the path of the field at fault (the repository's one `Problem`). */
export type ValidationProblem = Problem;

/**
 * Checks a non-empty list of non-empty job ids.
 *
 * @param value - the ids
 * @returns the problems found, with the index of each bad id
 */
export function checkJobIds(value: unknown): Problem[] {
  if (!Array.isArray(value) || value.length === 0) return [{ path: 'jobIds', message: 'must be a non-empty list of job ids' }];
  return value.flatMap((id, i) => checkId(id, `jobIds[${i}]`));
}

/**
 * Validates the input of `autoLabelTokenBasedProject` before anything is sent: the rules'
 * one home is `src/shared/autoLabelRules.ts`, which the emulator applies too.
 *
 * @param input - the value to check (typed `unknown`: it often comes from a file or a CLI)
 * @param options - see {@link AutoLabelValidationOptions}
 * @returns every problem at once; an empty list means the input is valid
 * @remarks Rules: non-empty `projectId`; a plausible `labelerEmail`; `options.numberOfFilesPerRequest`
 * an integer ≥ 0; `options.serviceProvider` absent or `CUSTOM`; `targetAPI.endpoint` an absolute
 * http(s) URL, https unless the host is loopback or `allowInsecureEndpoint` is set;
 * `targetAPI.secretKey` a non-empty string; `role`, when given, `LABELER` or `REVIEWER`.
 * Messages never quote the secret key.
 * @example
 * ```ts
 * const problems = validateAutoLabelInput({ projectId: '', labelerEmail: 'x' });
 * // [{ path: 'input.projectId', message: 'must be a non-empty string' }, …]
 * ```
 */
export const validateAutoLabelInput: (input: unknown, options?: AutoLabelValidationOptions) => Problem[] = autoLabelInputProblems;

/**
 * Checks the options of one call of `request`: the timing options, a `check` that is a function
 * and an `outcomeHint` that is a string.
 *
 * @param options - the call's options as given (absent is fine)
 * @returns every problem, each naming its option
 */
export function checkRequestOptions(options: object | undefined): Problem[] {
  const problems = checkTimingOptions(options, 'options');
  if (!isRecord(options)) return problems;
  return [
    ...problems,
    ...problemUnless(options.check === undefined || typeof options.check === 'function', 'options.check', 'must be a function'),
    ...problemUnless(options.outcomeHint === undefined || typeof options.outcomeHint === 'string', 'options.outcomeHint', 'must be a string'),
  ];
}

/**
 * Checks the options of `createLabelingClient`: an absolute http(s) URL, exactly one source
 * of credentials (`token`, or `auth` from a credential factory, whose own problems join these),
 * and sensible numbers for time-out, retries and polling.
 *
 * @param options - the options as given
 * @returns every problem at once; messages never quote a token or secret
 */
export function checkClientOptions(given: object): Problem[] {
  const options: Record<string, unknown> = { ...given };
  const { token, auth, schemaGeneration, onSchemaChange } = options;
  const retry = isRecord(options.retry) ? options.retry : {};
  let url: URL | undefined;
  try {
    url = typeof options.url === 'string' ? new URL(options.url) : undefined;
  } catch {
    /* reported below */
  }
  const httpUrl = url?.protocol === 'http:' || url?.protocol === 'https:';
  return [
    ...problemUnless(httpUrl, 'options.url', 'must be an absolute http(s) URL of the GraphQL endpoint'),
    ...problemUnless((token === undefined) !== (auth === undefined), 'options', 'give exactly one of token, auth (clientCredentials(…) or refreshingToken(…))'),
    // The credential options of before the factories: named, so that they are not silently ignored.
    ...problemUnless(options.clientCredentials === undefined, 'options.clientCredentials', 'is not an option: pass auth: clientCredentials({ clientId, clientSecret })'),
    ...problemUnless(options.getToken === undefined, 'options.getToken', 'is not an option: pass auth: refreshingToken(getToken)'),
    ...(token === undefined ? [] : checkId(token, 'options.token')),
    ...problemUnless(typeof token !== 'string' || token.trim() === '' || isHeaderToken(token), 'options.token', NOT_A_HEADER_TOKEN),
    ...(auth === undefined ? [] : isRecord(auth) && Array.isArray(auth.problems) && typeof auth.exchange === 'function' ? (auth.problems as Problem[]) : [{ path: 'options.auth', message: 'must come from clientCredentials(…) or refreshingToken(…)' }]),
    ...checkTimingOptions({ timeoutMs: options.timeoutMs }, 'options'),
    ...checkNumber(retry.maxAttempts, 'options.retry.maxAttempts', 1, true),
    ...checkNumber(retry.initialDelayMs, 'options.retry.initialDelayMs', 0),
    ...checkNumber(retry.maxDelayMs, 'options.retry.maxDelayMs', 0),
    ...checkTimingOptions(options.poll ?? undefined, 'options.poll'),
    ...problemUnless(schemaGeneration === undefined || schemaGeneration === 'tags' || schemaGeneration === 'labels', 'options.schemaGeneration', "must be 'tags' or 'labels'"),
    ...problemUnless(onSchemaChange === undefined || typeof onSchemaChange === 'function', 'options.onSchemaChange', 'must be a function'),
  ];
}

/** The rule of one field: the problems of `value` at `path`. */
type Rule = (value: unknown, path: string) => Problem[];

/** A rule for a field that may be absent. */
const optional = (rule: Rule): Rule => (value, path) => (value === undefined ? [] : rule(value, path));

/**
 * Checks an object field by field, in the order of `rules` (so problems come in the fields' order).
 *
 * @param input - the value (often from a file)
 * @param rules - one rule per field
 * @param what - the fields named when `input` is no object at all
 * @returns every problem, each at `input.<field>…`
 */
function checkFields(input: unknown, rules: Record<string, Rule>, what: string): Problem[] {
  if (!isRecord(input)) return [{ path: 'input', message: `must be an object with ${what}` }];
  return Object.entries(rules).flatMap(([key, rule]) => rule(input[key], `input.${key}`));
}

/**
 * Checks the labels of a label-set write before anything is sent.
 *
 * @param value - the labels (typed `unknown`: they often come from a file)
 * @param path - the list's path, e.g. `input.labelItems`
 * @param kind - `replace`: every label of a set (`createLabelSet`, `updateLabelSet`), whose
 * parents must be in the list; `append`: labels added at the top of a set (`appendLabelItems`):
 * no `parentId`, the `id` optional, at least one label
 * @returns every problem, each with its path (`input.labelItems[2].labelName`)
 * @remarks Rules: `id` a non-empty string, unique in the list; `labelName` a non-empty string,
 * unique case-insensitively among the labels of one parent (as the service compares names);
 * `color` a `#rrggbb` string or null (as production documents it for writes); `desc` a string or
 * null. For `replace`, a `parentId` names another label of the list, not the label itself, and
 * no chain of parents is a cycle (reported at each label of the cycle). The rules shared with the
 * emulator's writes are `labelWriteProblems` (src/shared/labelItemRules.ts). What the
 * list cannot show (an appended name that a label of the set already has) is the service's to refuse.
 * @example
 * ```ts
 * checkLabelItems([{ id: 'p', labelName: 'PERSON', color: 'red' }], 'input.labelItems', 'replace');
 * // [{ path: 'input.labelItems[0].color', message: 'must be a #rrggbb colour …' }]
 * ```
 */
function checkLabelItems(value: unknown, path: string, kind: 'replace' | 'append'): Problem[] {
  if (!Array.isArray(value)) return [{ path, message: 'must be a list of labels' }];
  const append = kind === 'append';
  if (append && value.length === 0) return [{ path, message: 'must hold at least one label' }];
  const shapes = value.flatMap((item: unknown, i): Problem[] =>
    isRecord(item)
      ? problemUnless(!append || item.parentId === undefined, `${path}[${i}].parentId`, 'cannot be given: appended labels go at the top of the set (to add a child, replace the labels with updateLabelSet)')
      : [{ path: `${path}[${i}]`, message: 'must be an object with id and labelName' }],
  );
  const rules = labelWriteProblems(value, { fields: { name: 'labelName' }, refer: (i) => `${path}[${i}]`, append });
  return [...shapes, ...rules.map((p) => ({ path: `${path}[${p.index}].${p.field === 'name' ? 'labelName' : p.field}`, message: p.message }))];
}

/** A set's `index`: an integer from 0 to 4 (the rule's home is `shared/labelItemRules`). */
const setIndex: Rule = (value, path) => {
  const message = labelSetIndexProblem(value);
  return message ? [{ path, message }] : [];
};

/** The labels of `createLabelSet` and `updateLabelSet`: every label of the set, parents in the list. */
const replacedLabels: Rule = (value, path) => checkLabelItems(value, path, 'replace');

/**
 * Checks the arguments of `createLabelSet` before anything is sent.
 *
 * @param projectId - the project
 * @param input - index, name, labels and `arrowLabelRequired`
 * @returns every problem (paths `projectId`, `input.index`, `input.name`, `input.labelItems[i]…`)
 * @remarks `index` is an integer from 0 to 4 (a project has at most five sets); `name` is
 * non-empty; the labels follow {@link checkLabelItems} (`replace`).
 * @example
 * ```ts
 * checkCreateLabelSet('p1', { index: 5, name: 'Entities', labelItems: [] }); // input.index: must be an integer from 0 to 4 …
 * ```
 */
export function checkCreateLabelSet(projectId: unknown, input: unknown): Problem[] {
  const arrowLabelRequired: Rule = (value, path) => problemUnless(value === undefined || typeof value === 'boolean', path, 'must be true or false');
  return [...checkId(projectId, 'projectId'), ...checkFields(input, { index: setIndex, name: checkId, arrowLabelRequired, labelItems: replacedLabels }, 'index, name and labelItems')];
}

/**
 * Checks the input of `updateLabelSet` before anything is sent.
 *
 * @param input - the set's id and project, the signature as read, a new name and/or new labels
 * @returns every problem (paths `input.id`, `input.projectId`, `input.labelSetSignature`,
 * `input.name`, `input.labelItems[i]…`)
 * @remarks At least one of `name` and `labelItems` must be given: an update without either changes nothing.
 * @example
 * ```ts
 * checkUpdateLabelSet({ id: '1', projectId: 'p1' }); // input: give name, labelItems or both
 * ```
 */
export function checkUpdateLabelSet(input: unknown): Problem[] {
  const text = optional(checkId);
  const rules = { id: checkId, projectId: checkId, labelSetSignature: text, name: text, labelItems: optional(replacedLabels) };
  const problems = checkFields(input, rules, 'id, projectId and name or labelItems');
  if (!isRecord(input) || input.name !== undefined || input.labelItems !== undefined) return problems;
  return [...problems, { path: 'input', message: 'give name, labelItems or both (an update without either changes nothing)' }];
}

/**
 * Checks the input of `appendLabelItems` before anything is sent.
 *
 * @param input - the set's id, the signature as read, the labels to add
 * @returns every problem (paths `input.labelSetId`, `input.labelSetSignature`, `input.labelItems[i]…`)
 * @example
 * ```ts
 * checkAppendLabelItems({ labelSetId: '1', labelItems: [{ labelName: 'EVENT', parentId: '10' }] }); // input.labelItems[0].parentId: cannot be given …
 * ```
 */
export function checkAppendLabelItems(input: unknown): Problem[] {
  const labelItems: Rule = (value, path) => checkLabelItems(value, path, 'append');
  return checkFields(input, { labelSetId: checkId, labelSetSignature: optional(checkId), labelItems }, 'labelSetId and labelItems');
}

/**
 * Rejects with every problem at once, before anything is sent: the given ones and those of the
 * call's (or the wait's) options.
 *
 * @param operationName - the operation the call would send, named in the error
 * @param problems - the problems of the call's own arguments
 * @param callOptions - the call's options, checked by {@link checkTimingOptions}
 * @throws {@link ValidationError} when there is any problem
 */
export function assertValid(operationName: string, problems: Problem[], callOptions?: object): void {
  const all = [...problems, ...checkTimingOptions(callOptions, 'options')];
  if (all.length > 0) throw new ValidationError(all, { operationName });
}

/**
 * A check of a list answer: a list, with one entry per entry asked when `count` is given
 * (production allows `null` for some).
 *
 * @returns what is wrong, or undefined
 */
export function listProblem(name: string, list: unknown, count?: number, counted = 'entries', asked = 'ids'): string | undefined {
  if (!Array.isArray(list)) return `${name} is not a list`;
  return count === undefined || list.length === count ? undefined : `${name} has ${list.length} ${counted} for ${count} ${asked}`;
}
