// The shared list of roles is the generated Role type, value for value: adding a role to the
// schema without adding it to src/shared/constants.ts (or the reverse) fails here.
import { describe, expectTypeOf, it } from 'vitest';
import type { Role } from '../../src/client/index.js';
import type { ROLES } from '../../src/shared/constants.js';

describe('ROLES', () => {
  it('lists exactly the values of the Role type', () => {
    expectTypeOf<(typeof ROLES)[number]>().toEqualTypeOf<Role>();
  });
});
