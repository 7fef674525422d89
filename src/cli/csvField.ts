/**
 * One CSV field: quoted when it holds a comma, quote or line break (RFC 4180).
 *
 * @param value - the cell; null and undefined are empty
 * @returns the field as it goes between commas
 */
export const csvField = (value: string | number | boolean | null | undefined): string => {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};
