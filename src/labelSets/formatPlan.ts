import pc from 'picocolors';
import { terminalText } from '../shared/escape.js';
import { destructiveSteps, planIsEmpty } from './plan.js';
import type { LabelSetPlan, PlanItem, PlanStep, PlanWrite } from './plan.js';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const show = (value: string | null | undefined) => (value === null || value === undefined ? '(none)' : JSON.stringify(value));
const label = (item: PlanItem) => `${item.labelName} (${item.id === null ? 'id made by the service' : `id ${item.id}`})`;
const applied = (count: number | null | undefined) =>
  count === null || count === undefined ? 'an unknown number of applied labels go' : count === 0 ? 'no applied labels' : `${plural(count, 'applied label')} ${count === 1 ? 'goes' : 'go'}`;

/** The set a write is about, as a person names it: `label set 0 "Entities" (id 1)`. */
function setTitle(plan: LabelSetPlan, write: PlanWrite): string {
  const step = plan.steps.find((s) => plan.writes[s.write] === write);
  const name = step?.setName ?? plan.against.find((f) => f.index === write.setIndex)?.name ?? '?';
  return `label set ${write.setIndex} "${name}"${write.op === 'create' ? '' : ` (id ${write.setId})`}`;
}

/**
 * One write of a plan in words, for progress lines and errors.
 *
 * @param plan - the plan
 * @param index - the write's index in `plan.writes`
 * @returns e.g. `append 1 label to label set 0 "Entities" (id 1)`
 * @example
 * ```ts
 * describeWrite(plan, 0); // 'replace the labels of label set 0 "Entities" (id 1), 6 labels'
 * ```
 */
export function describeWrite(plan: LabelSetPlan, index: number): string {
  const write = plan.writes[index]!;
  const title = setTitle(plan, write);
  switch (write.op) {
    case 'create':
      return `create ${title} with ${plural(write.labelItems.length, 'label')}`;
    case 'append':
      return `append ${plural(write.labelItems.length, 'label')} to ${title}`;
    case 'delete':
      return `delete ${title}`;
    case 'update':
      if (write.labelItems === undefined) return `rename ${title} to "${write.name}"`;
      return `${write.name === undefined ? '' : `rename and `}replace the labels of ${title}, ${plural(write.labelItems.length, 'label')}`;
  }
}

/**
 * One step of a plan in words (what `--allow-destructive` is asked for lists these).
 *
 * @param step - a step
 * @returns e.g. `remove PERSON (id 11) from label set 0 "Entities": 4 applied labels go`
 */
export function describeStep(step: PlanStep): string {
  const where = `label set ${step.setIndex} "${step.setName}"`;
  const names = step.items.map(label).join(', ');
  switch (step.kind) {
    case 'delete-set':
      return `delete ${where} (id ${step.setId}) and its ${plural(step.items.length, 'label')}: ${applied(step.appliedLabels)}`;
    case 'remove-items':
      return `remove ${names} from ${where}: ${applied(step.appliedLabels)}`;
    case 'create-set':
      return `create ${where} with ${plural(step.items.length, 'label')}`;
    case 'rename-set':
      return `rename ${where} (was "${step.previousSetName}")`;
    default:
      return `${step.kind.replace('-items', '')} ${names} in ${where}`;
  }
}

/** The lines of one step in the diff: a sign, then one line per label (or one for the set). */
function stepLines(step: PlanStep, c: ReturnType<typeof pc.createColors>): string[] {
  // The names in a line come from the file and the service: escaped before the line is coloured.
  const add = (text: string) => c.green(`  + ${terminalText(text)}`);
  const change = (text: string) => c.yellow(`  ~ ${terminalText(text)}`);
  const remove = (text: string) => c.red(`  - ${terminalText(text)}`);
  switch (step.kind) {
    case 'create-set':
      return step.items.length === 0 ? [add('(no labels)')] : step.items.map((item) => add(label(item)));
    case 'rename-set':
      return [change(`name "${step.previousSetName}" → "${step.setName}"`)];
    case 'add-items':
      return step.items.map((item) => add(label(item)));
    case 'rename-items':
      return step.items.map((item) => change(`${label(item)}: name ${item.from} → ${item.to}`));
    case 'recolour-items':
      return step.items.map((item) => change(`${label(item)}: colour ${item.from ?? '(none)'} → ${item.to ?? '(none)'}`));
    case 'reparent-items':
      return step.items.map((item) => change(`${label(item)}: parent ${item.fromParent ?? '(top level)'} → ${item.toParent ?? '(top level)'}`));
    case 'describe-items':
      return step.items.map((item) => change(`${label(item)}: description ${show(item.from)} → ${show(item.to)}`));
    case 'remove-items':
      return step.items.map((item) => remove(`${label(item)}: removed, ${applied(item.appliedLabels)}`));
    case 'delete-set':
      return [remove(`delete the set and its ${plural(step.items.length, 'label')}: ${applied(step.appliedLabels)}`)];
  }
}

/**
 * A plan as a readable diff, set by set: `+` adds, `~` changes, `-` removes, then the writes
 * in order, what is destructive, and the warnings.
 *
 * @param plan - the plan
 * @param options - `color`: green, yellow and red signs (for a terminal); `destructiveAllowed`:
 * the apply was given `--allow-destructive` (the destructive line then says so instead of asking for it)
 * @returns the lines, without line ends; control characters in names shown escaped (`shared/escape`)
 * @example
 * ```ts
 * for (const line of formatLabelSetPlan(plan, { color: false })) console.log(line);
 * // label set 0 "Entities" (id 1)
 * //   ~ PERSON (id 11): name PERSON → PER
 * // …
 * ```
 */
export function formatLabelSetPlan(plan: LabelSetPlan, options: { color?: boolean; destructiveAllowed?: boolean } = {}): string[] {
  const c = pc.createColors(options.color ?? false);
  const lines: string[] = [];
  if (planIsEmpty(plan)) {
    lines.push(`No changes: the ${plural(plan.against.length, 'label set')} of ${plan.projectId} (${plan.role}) ${plan.against.length === 1 ? 'is' : 'are'} as the file says.`);
  } else {
    let current = '';
    for (const step of plan.steps) {
      const title = `label set ${step.setIndex} "${step.setName}" ${step.setId === null ? '(new)' : `(id ${step.setId})`}`;
      if (title !== current) lines.push(c.bold(terminalText(title)));
      current = title;
      lines.push(...stepLines(step, c));
    }
    lines.push('', `${plural(plan.writes.length, 'write')}, in this order:`);
    plan.writes.forEach((_, i) => lines.push(`  ${i + 1}. ${describeWrite(plan, i)}`));
    const { steps, appliedLabels } = destructiveSteps(plan);
    if (steps.length > 0) {
      const count = appliedLabels === null ? 'an unknown number of applied labels' : plural(appliedLabels, 'applied label');
      const allowed = options.destructiveAllowed === true ? 'allowed by --allow-destructive' : 'apply needs --allow-destructive';
      lines.push(c.red(`Destructive: ${plural(steps.length, 'step')} ${steps.length === 1 ? 'removes' : 'remove'} ${count} (${allowed}).`));
    }
  }
  for (const warning of plan.warnings) lines.push(c.yellow(`warning: ${terminalText(warning)}`));
  return lines;
}
