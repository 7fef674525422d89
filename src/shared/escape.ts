/* eslint-disable no-control-regex -- finding control characters is what this module is for */
import { stringify } from 'csv-stringify/sync';
import { OwnText } from './redact.js';

/**
 * Text from elsewhere (label, set and document names, document text, model error bodies, file
 * names) is data: each output escapes it for its own reader, here and nowhere else. A terminal
 * shows control characters escaped ({@link terminalText}); a CSV cell that a spreadsheet would run
 * as a formula gets OWASP's leading `'` ({@link csvRow}); a markdown value has every line break,
 * HTML and markup character escaped ({@link markdownText}); an HTML page escapes as it always has.
 *
 * @see https://owasp.org/www-community/attacks/CSV_Injection
 * @see https://cheatsheetseries.owasp.org/cheatsheets/Logging_Cheat_Sheet.html
 * @module
 */

/**
 * The characters a terminal may act on instead of showing: C0 controls (ESC, BEL, CR, backspace,
 * NUL, …) but tab and line feed, DEL, the C1 controls (U+0080–U+009F: `\x9b` is a CSI of its own
 * on some terminals) and the bidirectional overrides and isolates, which reorder what is shown
 * (CVE-2021-42574, "Trojan Source").
 */
const TERMINAL_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** The same, with line feed and tab: for one value inside a line. */
const VALUE_CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** The same, but a colour or style sequence (SGR, `ESC[…m`, as picocolors writes it) is one match, kept. */
const CONTROL_OR_SGR = /\u001b\[[0-9;]*m|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * How one control character is shown: `\r`, `\n`, `\t`, else `\uHHHH`; JSON's escapes, so that
 * inside a JSON string the escaped text still means the same character.
 */
function shown(c: string): string {
  return NAMED[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * A value from elsewhere as a terminal should show it: every control character escaped (CR as `\r`,
 * line feed as `\n`, tab as `\t`, others as `\uHHHH`, ESC as `\u001b`), so that a name holding `ESC[2J` or an
 * OSC 8 link is read, not run, and cannot break or rewrite the line it is printed in.
 *
 * @param value - the value, as the service or a file gave it
 * @returns the value with no character a terminal acts on
 * @remarks The printer of the CLI applies the same rule to every line it writes ({@link terminalLine});
 * call this on a value that labelkit colours itself ({@link coloured}), so that a colour sequence
 * inside the value is not taken for labelkit's own.
 * @example
 * ```ts
 * terminalText('DATE\u001b[2J'); // 'DATE\\u001b[2J'
 * ```
 */
export function terminalText(value: string): string {
  return value.replace(VALUE_CONTROL, shown);
}

/**
 * A line (or several) about to be written to a terminal or a pipe: every control character
 * escaped as in {@link terminalText}, but line feed and tab, and colour sequences (SGR,
 * `ESC[…m`, which only colour text) kept when `keepColour` is true.
 *
 * @param text - the line
 * @param keepColour - true for a line whose colours labelkit wrote ({@link ColouredText}: values in
 * it have been through {@link terminalText}); false for any other text, whose every ESC is escaped
 * @returns the line with no other character a terminal acts on
 * @example
 * ```ts
 * terminalLine('\u001b[31mbad\u001b[39m \u001b]0;title\u0007', true); // '\u001b[31mbad\u001b[39m \\u001b]0;title\\u0007'
 * ```
 */
export function terminalLine(text: string, keepColour: boolean): string {
  return text.replace(keepColour ? CONTROL_OR_SGR : TERMINAL_CONTROL, (m) => (m.length > 1 ? m : shown(m)));
}

/**
 * A line that labelkit coloured itself: the printer keeps its colour sequences (SGR), and escapes
 * every other control character. Every value from elsewhere in it must have been through
 * {@link terminalText} before it was coloured (so it holds no ESC of its own).
 */
export class ColouredText {
  /** @param text - the line, with labelkit's colour sequences */
  constructor(readonly text: string) {}

  /** The line as it reads. */
  toString(): string {
    return this.text;
  }
}

/**
 * The first character of a value that a terminal may act on instead of showing (the ones
 * {@link terminalText} escapes), for a check that refuses them where text enters: a name that
 * holds NUL, ESC or CR is a mistake or a trap, not a name.
 *
 * @param value - the value
 * @param options - `lineBreaks: true` lets line feed and tab through (a description may have lines)
 * @returns where the first one is (0-based, in UTF-16 units) and how it is shown (`\u001b`, `\r`),
 * or undefined when there is none
 * @example
 * ```ts
 * controlCharacterIn('DATE\u001b[2J'); // { index: 4, shown: '\\u001b' }
 * controlCharacterIn('two\nlines', { lineBreaks: true }); // undefined
 * ```
 */
export function controlCharacterIn(value: string, options: { lineBreaks?: boolean } = {}): { index: number; shown: string } | undefined {
  const index = value.search(options.lineBreaks ? TERMINAL_CONTROL : VALUE_CONTROL);
  return index === -1 ? undefined : { index, shown: shown(value[index]!) };
}

/**
 * Marks a line as coloured by labelkit (see {@link ColouredText}).
 *
 * @param text - the line: labelkit's colours around values escaped with {@link terminalText}
 * @returns the line, for the printer
 */
export function coloured(text: string): ColouredText {
  return new ColouredText(text);
}

/**
 * A line built with the `own` tag as a terminal should show it: labelkit's fixed wording as it is
 * (it may hold labelkit's colours), every value from elsewhere through {@link terminalLine} with
 * no colour kept, also inside nested own texts.
 *
 * @param text - the line
 * @returns the same line, its values escaped, still an own text for the redactor
 */
export function terminalOwnText(text: OwnText): OwnText {
  return new OwnText(
    text.fixed,
    text.values.map((v) => (v instanceof OwnText ? terminalOwnText(v) : terminalLine(String(v), false))),
  );
}

/** One CSV cell as labelkit writes it: text, a number, a boolean, or empty. */
export type CsvCell = string | number | boolean | null | undefined;

/**
 * One CSV record (RFC 4180, without its line break), with OWASP's rule against formula
 * injection: a text cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return (or their
 * full-width forms, which some spreadsheets read alike) gets a leading `'`, so that a spreadsheet
 * shows it as text instead of running it.
 *
 * @param cells - the cells; null and undefined are empty, booleans `true`/`false`
 * @returns the record: cells quoted when they hold a comma, a quote or a line break (a lone CR too)
 * @remarks Written by `csv-stringify` (`escape_formulas`). A number is written as it is, also a
 * negative one (`-1` is a number to a spreadsheet, not a formula); the text `-1+2` is escaped. The
 * `'` is part of the cell for any other reader: a program reading the file back strips it.
 * @see https://owasp.org/www-community/attacks/CSV_Injection
 * @example
 * ```ts
 * csvRow(['=1+1', 'a,b', -1, null]); // "'=1+1,\"a,b\",-1,"
 * ```
 */
export function csvRow(cells: readonly CsvCell[]): string {
  return stringify([cells as CsvCell[]], {
    escape_formulas: true,
    quote_record_delimiter: true,
    record_delimiter: '\n',
    cast: { boolean: (value) => String(value) },
  }).slice(0, -1);
}

/**
 * A value from elsewhere inside a markdown line (a table cell, a heading, a sentence), so that it
 * renders as exactly its text: every line break (CRLF, a lone CR or LF) and other control
 * character becomes a space, so that it cannot end the line (and with it the table); and every
 * character that can start inline markup in CommonMark or GFM is backslash-escaped (each then
 * renders as itself): backslash, backtick, star, underscore, tilde, brackets, angle brackets and
 * ampersand (HTML, links, images, emphasis, code, entities), the bar (a table cell), colon, at
 * sign and full stop (autolinks: `https://…`, `a@b.c`, `www.…`) and the exclamation mark.
 *
 * @param value - the value
 * @returns the value as markdown that renders to its text, on one line
 * @remarks Block markup (`#`, `>`, `-`, a fence) starts only at the beginning of a line; the value
 * never begins one, since its line breaks are gone.
 * @example
 * ```ts
 * markdownText('CR\r# <img src=x> [a](http://x)'); // 'CR # \\<img src=x\\> \\[a\\](http\\://x)'
 * ```
 */
export function markdownText(value: string): string {
  return value.replace(/\r\n?|[\u0000-\u001f\u007f]/g, ' ').replace(/[\\`*_~[\]<>&|:@.!]/g, (c) => `\\${c}`);
}
