import { describe, expectTypeOf, it } from 'vitest';
import type { LabelsResolvers, TagsResolvers } from '../../src/emulator/resolvers.js';
import type { StoredLabel } from '../../src/emulator/types.js';

// The emulator's resolver types come from generated/<generation>/resolvers.ts with the store's
// types as mappers: a schema field that the store lacks needs a resolver, and a resolver for a
// field the schema lacks is refused. A rename in the schema is a compile error, not a runtime one.
describe('the emulator resolver types', () => {
  it('require a resolver for the renamed fields that the store names otherwise', () => {
    // @ts-expect-error labelItems is required: StoredLabelSet has `labels`, not `labelItems`
    const missing: LabelsResolvers['LabelSet'] = {};
    // @ts-expect-error tagName is required: StoredLabel has `name`, not `tagName`
    const missingTag: TagsResolvers['TagItem'] = {};
    expectTypeOf(missing).not.toBeAny();
    expectTypeOf(missingTag).not.toBeAny();
  });

  it('refuse a resolver for the other generation’s field name', () => {
    const stale: LabelsResolvers['TagItem'] = {
      labelName: (label) => label.name,
      // @ts-expect-error tagName is not a field of the renamed TagItem
      tagName: (label: StoredLabel) => label.name,
    };
    expectTypeOf(stale).not.toBeAny();
  });

  it('need no resolver where the store has the schema’s shape', () => {
    const job: TagsResolvers['Job'] = {};
    expectTypeOf(job).toMatchTypeOf<object>();
    expectTypeOf<Parameters<Extract<LabelsResolvers['LabelSet']['labelItems'], (...args: never[]) => unknown>>[0]>().toHaveProperty('labels');
  });
});
