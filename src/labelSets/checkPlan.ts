import type { ValidationProblem } from 'labelkit';
import { MAX_LABEL_SETS, ROLES } from '../shared/constants.js';
import { PLAN_FORMAT } from './plan.js';

const STEP_KINDS = ['create-set', 'rename-set', 'add-items', 'rename-items', 'recolour-items', 'reparent-items', 'describe-items', 'remove-items', 'delete-set'];
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';
const isIndex = (value: unknown) => Number.isInteger(value) && (value as number) >= 0 && (value as number) < MAX_LABEL_SETS;
const isCount = (value: unknown) => value === null || (Number.isInteger(value) && (value as number) >= 0);
const isOptionalText = (value: unknown) => value === undefined || value === null || typeof value === 'string';

/**
 * Checks a plan read back from a file (`labelkit label-sets apply --plan plan.json`) before anything is sent.
 *
 * @param value - the parsed file
 * @returns every problem at once, each at its path (`plan.writes[2].setId`); empty for a plan {@link applyLabelSetPlan} can apply
 * @remarks Checks the shape of everything that is sent (each write and its labels) and of what
 * the compare-and-swap reads (`against`), and that each step names a write of the plan. It does
 * not check that the plan is still right: applying re-reads the sets for that.
 * @example
 * ```ts
 * checkLabelSetPlan(JSON.parse(await readFile('plan.json', 'utf8'))); // [] for a saved plan
 * ```
 */
export function checkLabelSetPlan(value: unknown): ValidationProblem[] {
  const problems: ValidationProblem[] = [];
  const add = (path: string, message: string) => void problems.push({ path, message });
  if (!isRecord(value)) return [{ path: 'plan', message: 'must be an object (what labelkit label-sets plan --out writes)' }];
  if (value.format !== PLAN_FORMAT) add('plan.format', `must be "${PLAN_FORMAT}" (not a label-set plan?)`);
  if (value.version !== 1) add('plan.version', 'must be 1 (a plan from another version of labelkit: plan again)');
  if (!isText(value.projectId)) add('plan.projectId', 'must be a non-empty string');
  if (typeof value.role !== 'string' || !(ROLES as readonly string[]).includes(value.role)) add('plan.role', `must be ${ROLES.join(' or ')}`);
  if (!Array.isArray(value.warnings) || !value.warnings.every((w) => typeof w === 'string')) add('plan.warnings', 'must be a list of text');
  if (!Array.isArray(value.against)) add('plan.against', 'must be a list of the sets the plan was computed against');
  else {
    value.against.forEach((f: unknown, i) => {
      const path = `plan.against[${i}]`;
      if (!isRecord(f)) return add(path, 'must be an object');
      if (!isText(f.id)) add(`${path}.id`, 'must be a non-empty string');
      if (!isIndex(f.index)) add(`${path}.index`, `must be an integer from 0 to ${MAX_LABEL_SETS - 1}`);
      if (typeof f.name !== 'string') add(`${path}.name`, 'must be a string');
      if (!isOptionalText(f.signature)) add(`${path}.signature`, 'must be a string or null');
      if (typeof f.itemsHash !== 'string' || !/^[0-9a-f]{64}$/.test(f.itemsHash)) add(`${path}.itemsHash`, 'must be a sha256 in hex');
      if (!isCount(f.labelCount) || f.labelCount === null) add(`${path}.labelCount`, 'must be an integer >= 0');
    });
  }
  const writes = Array.isArray(value.writes) ? value.writes : undefined;
  if (!writes) add('plan.writes', 'must be a list');
  else writes.forEach((w: unknown, i) => checkWrite(w, `plan.writes[${i}]`, add));
  if (!Array.isArray(value.steps)) add('plan.steps', 'must be a list');
  else {
    value.steps.forEach((s: unknown, i) => {
      const path = `plan.steps[${i}]`;
      if (!isRecord(s)) return add(path, 'must be an object');
      if (typeof s.kind !== 'string' || !STEP_KINDS.includes(s.kind)) add(`${path}.kind`, `must be one of ${STEP_KINDS.join(', ')}`);
      if (!isIndex(s.setIndex)) add(`${path}.setIndex`, `must be an integer from 0 to ${MAX_LABEL_SETS - 1}`);
      if (s.setId !== null && !isText(s.setId)) add(`${path}.setId`, 'must be a non-empty string or null');
      if (typeof s.setName !== 'string') add(`${path}.setName`, 'must be a string');
      if (!Array.isArray(s.items) || !s.items.every((item) => isRecord(item) && (item.id === null || isText(item.id)) && typeof item.labelName === 'string')) {
        add(`${path}.items`, 'must be a list of { id, labelName }');
      }
      if (typeof s.destroysLabels !== 'boolean') add(`${path}.destroysLabels`, 'must be true or false');
      if (!isCount(s.appliedLabels)) add(`${path}.appliedLabels`, 'must be an integer >= 0, or null when not known');
      if (!Number.isInteger(s.write) || (s.write as number) < 0 || (writes !== undefined && (s.write as number) >= writes.length)) add(`${path}.write`, 'must be the index of one of the plan\'s writes');
    });
  }
  return problems;
}

function checkWrite(w: unknown, path: string, add: (path: string, message: string) => void): void {
  if (!isRecord(w)) return add(path, 'must be an object');
  if (!['create', 'append', 'update', 'delete'].includes(w.op as string)) return add(`${path}.op`, 'must be create, append, update or delete');
  if (!isIndex(w.setIndex)) add(`${path}.setIndex`, `must be an integer from 0 to ${MAX_LABEL_SETS - 1}`);
  if (w.op !== 'create' && !isText(w.setId)) add(`${path}.setId`, 'must be a non-empty string');
  if (w.op === 'create' && !isText(w.name)) add(`${path}.name`, 'must be a non-empty string');
  if (w.op === 'update' && w.name !== undefined && !isText(w.name)) add(`${path}.name`, 'must be a non-empty string when given');
  const needsItems = w.op === 'create' || w.op === 'append';
  if (w.labelItems === undefined) {
    if (needsItems) add(`${path}.labelItems`, 'required');
    return;
  }
  if (w.op === 'delete') return add(`${path}.labelItems`, 'a delete sends no labels');
  if (!Array.isArray(w.labelItems)) return add(`${path}.labelItems`, 'must be a list');
  w.labelItems.forEach((item: unknown, j) => {
    const at = `${path}.labelItems[${j}]`;
    if (!isRecord(item)) return add(at, 'must be an object');
    if (w.op === 'append' ? item.id !== undefined && !isText(item.id) : !isText(item.id)) add(`${at}.id`, 'must be a non-empty string');
    if (w.op === 'append' && item.parentId !== undefined) add(`${at}.parentId`, 'an appended label has no parent');
    if (w.op !== 'append' && item.parentId !== undefined && item.parentId !== null && !isText(item.parentId)) add(`${at}.parentId`, 'must be a non-empty string or null');
    if (!isText(item.labelName)) add(`${at}.labelName`, 'must be a non-empty string');
    if (!isOptionalText(item.color)) add(`${at}.color`, 'must be a string or null');
    if (!isOptionalText(item.desc)) add(`${at}.desc`, 'must be a string or null');
  });
}

