import { describe, expect, it } from 'vitest';
import { GraphQLRequestError, NetworkError } from '../../src/client/errors.js';
import { EXIT, EXIT_CODE_HELP } from '../../src/cli/exitCodes.js';
import { exitCodeOf } from '../../src/cli/exitCodeOf.js';
import { ApplyError, DestructiveStepsError, LabelSetsFileError, LabelSetsPlanError, PlanStaleError } from '../../src/labelSets/index.js';

describe('exitCodeOf for the label-set workflow', () => {
  it('maps each of its errors when a label-sets command throws it', () => {
    expect(exitCodeOf(new LabelSetsFileError('f.json', [{ file: 'f.json', line: 1, message: 'm' }]))).toBe(EXIT.usage);
    expect(exitCodeOf(new LabelSetsPlanError(['cannot move']))).toBe(EXIT.usage);
    expect(exitCodeOf(new DestructiveStepsError(['remove X'], 3))).toBe(EXIT.usage);
    expect(exitCodeOf(new PlanStaleError(['label set 0 is gone']))).toBe(10);
    const parts = { done: [], failed: 'w', notSent: [], reason: 'r' };
    expect(exitCodeOf(new ApplyError({ ...parts, outcomeUnknown: true }, new NetworkError('NETWORK', 'lost', { mutationOutcomeUnknown: true })))).toBe(EXIT.network);
    expect(exitCodeOf(new ApplyError({ ...parts, outcomeUnknown: false }, new GraphQLRequestError([{ message: 'stale signature' }])))).toBe(EXIT.unexpected);
  });

  it('gives plan --exit-code and a stale apply codes of their own, listed in --help', () => {
    expect([EXIT.labelSetsDiffer, EXIT.labelSetsChanged]).toEqual([9, 10]);
    expect(new Set(Object.values(EXIT)).size).toBe(Object.values(EXIT).length);
    expect(EXIT_CODE_HELP).toMatch(/\n {2}9 {4}label-sets plan --exit-code: /);
    expect(EXIT_CODE_HELP).toMatch(/\n {2}10 {3}label-sets apply: the label sets changed since the plan \(or while it wrote\); nothing more was written/);
  });
});
