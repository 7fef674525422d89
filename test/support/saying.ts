import { expect } from 'vitest';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Matches a message by what it says, not by its wording: it starts with `start` (the place: a
 * `file:line: field:` prefix, an origin such as `labelkit: --flag:`; '' for none) and then has each
 * of `keyWords` (the rule, the value that matters), in this order. A rewording that keeps the
 * place and the key words still matches; a message about another field or value does not.
 *
 * @param start - what the message starts with, exactly
 * @param keyWords - the words that carry the meaning, in order
 * @returns an asymmetric matcher for `toEqual`, `toMatchObject` or `toHaveBeenCalledWith`
 */
export function saying(start: string, ...keyWords: string[]) {
  return expect.stringMatching(new RegExp(`^${escape(start)}[\\s\\S]*?${keyWords.map(escape).join('[\\s\\S]*?')}`));
}
