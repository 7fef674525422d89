/**
 * Whether a token can go into the `Authorization` header as it is: printable ASCII (spaces inside
 * it too), not starting or ending with a space. fetch refuses a line break or a control character
 * (every request would fail with a message about the URL), trims outer spaces (another token
 * would be sent) and mangles non-ASCII text.
 *
 * @param value - an access token
 * @returns true when fetch sends it as it is
 */
export const isHeaderToken = (value: string): boolean => /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(value);

/** What is wrong with a token that {@link isHeaderToken} refuses (it never quotes the token). */
export const NOT_A_HEADER_TOKEN =
  'cannot go into the Authorization header as it is: it starts or ends with a space, or holds a line break, a control or a non-ASCII character';
