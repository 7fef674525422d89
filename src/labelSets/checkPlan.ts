import type { ValidationProblem } from 'labelkit';
import { MAX_LABEL_SETS } from '../shared/constants.js';
import { isRecord } from '../shared/isRecord.js';
import { checkLabelSets, pathText } from './checkLabelSets.js';
import { PLAN_FORMAT } from './plan.js';
import { checkProjectAndRole } from './planLabelSets.js';

const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';

/**
 * Checks a saved plan (`labelkit label-sets apply --plan plan.json`, or a plan given to
 * `applyLabelSetPlan`) before anything is sent.
 *
 * @param value - the parsed file
 * @returns every problem at once, each at its path (`plan.desired[0].labelItems[2].color`);
 * empty for a plan that can be applied
 * @remarks A saved plan holds what was wanted (`desired`, checked like a label-set file) and
 * the fingerprints of what it was planned against (`against`); applying computes the writes
 * again from them, so there is nothing derived to check against itself.
 * @example
 * ```ts
 * checkSavedLabelSetPlan(JSON.parse(await readFile('plan.json', 'utf8'))); // [] for a saved plan
 * ```
 */
export function checkSavedLabelSetPlan(value: unknown): ValidationProblem[] {
  if (!isRecord(value)) return [{ path: 'plan', message: 'must be an object (what labelkit label-sets plan --out writes)' }];
  const problems: ValidationProblem[] = [];
  const add = (path: string, message: string) => void problems.push({ path, message });
  if (value.format !== PLAN_FORMAT) add('plan.format', `must be "${PLAN_FORMAT}" (not a label-set plan?)`);
  if (value.version !== 2) add('plan.version', 'must be 2 (a plan saved by another version of labelkit: plan again)');
  problems.push(...checkProjectAndRole(value.projectId, value.role).map((p) => ({ ...p, path: `plan.${p.path}` })));
  if (!Array.isArray(value.against)) add('plan.against', 'must be a list of the sets the plan was computed against');
  else {
    value.against.forEach((f: unknown, i) => {
      const path = `plan.against[${i}]`;
      if (!isRecord(f)) return add(path, 'must be an object');
      if (!isText(f.id)) add(`${path}.id`, 'must be a non-empty string');
      if (!Number.isInteger(f.index) || (f.index as number) < 0 || (f.index as number) >= MAX_LABEL_SETS) add(`${path}.index`, `must be an integer from 0 to ${MAX_LABEL_SETS - 1}`);
      if (typeof f.name !== 'string') add(`${path}.name`, 'must be a string');
      if (f.signature !== null && typeof f.signature !== 'string') add(`${path}.signature`, 'must be a string or null');
      if (typeof f.itemsHash !== 'string' || !/^[0-9a-f]{64}$/.test(f.itemsHash)) add(`${path}.itemsHash`, 'must be a sha256 in hex');
      if (!Number.isInteger(f.labelCount) || (f.labelCount as number) < 0) add(`${path}.labelCount`, 'must be an integer >= 0');
    });
  }
  const desired = checkLabelSets({ labelSets: value.desired });
  for (const p of desired.problems) add(`plan.${pathText(p.path).replace(/^labelSets/, 'desired')}`, p.message);
  return problems;
}
