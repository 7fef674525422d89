import { describe, expect, it } from 'vitest';
import { BulkValidationError } from '../../src/bulk/validationError.js';
import { isLabelkitError, LabelkitError } from '../../src/client/index.js';
import { ValidationError } from '../../src/client/errors.js';

const problems = [
  { path: 'inputs[0].projectId', message: 'must be a non-empty string' },
  { path: 'journal', message: 'was written for the service at https://other.example.com/graphql' },
];

describe('BulkValidationError', () => {
  it("looks to a caller exactly like the client's ValidationError when only the public entry tells them apart", () => {
    const bulk = new BulkValidationError(problems, { operationName: 'AutoLabelTokenBasedProjectMutation' });
    const client = new ValidationError(problems, { operationName: 'AutoLabelTokenBasedProjectMutation' });
    expect(bulk).toBeInstanceOf(LabelkitError);
    expect(isLabelkitError(bulk)).toBe(true);
    expect({ name: bulk.name, code: bulk.code, message: bulk.message, problems: bulk.problems }).toEqual({
      name: client.name,
      code: client.code,
      message: client.message,
      problems: client.problems,
    });
    expect(JSON.parse(JSON.stringify(bulk))).toEqual(JSON.parse(JSON.stringify(client)));
    expect(bulk.message).toBe(
      '[Validation] 2 problems: inputs[0].projectId: must be a non-empty string; journal: was written for the service at https://other.example.com/graphql',
    );
  });

  it('redacts a secret from its message when the secret is named in a problem', () => {
    const error = new BulkValidationError([{ path: 'inputs[0].targetAPI.endpoint', message: 'https://m.example.com/?key=SENTINEL-bulk-7c1d is not allowed' }], {
      secrets: ['SENTINEL-bulk-7c1d'],
    });
    expect(error.message).not.toContain('SENTINEL-bulk-7c1d');
    expect(error.message).toContain('***');
  });
});
