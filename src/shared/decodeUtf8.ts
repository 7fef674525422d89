import { Buffer, isUtf8 } from 'node:buffer';

/** One place of a file's bytes that is not UTF-8 text. */
export interface Utf8Problem {
  /** 1-based line. */
  line: number;
  /** 1-based column, in characters of the line as read (each unreadable sequence one character). */
  column: number;
  /** What is wrong, and what to do, e.g. `not UTF-8: the bytes ff fe at column 12 are not UTF-8 text (save the file as UTF-8)`. */
  message: string;
}

const REPLACEMENT = '\uFFFD';

/**
 * Reads a data file's bytes as UTF-8 text, and names every line whose bytes are not UTF-8.
 *
 * @param bytes - the file's contents
 * @returns `text`, the file as text (a UTF-8 byte-order mark dropped; bytes that are not UTF-8
 * each read as U+FFFD, as a browser reads them, so that the rest can still be checked), and
 * `problems`: the first unreadable place of each line, in order (empty for a UTF-8 file); a
 * UTF-16 file is one problem at line 1, and its `text` is empty
 * @remarks A file whose bytes are not UTF-8 (Latin-1, a name pasted from a binary, `\xff\xfe`) is
 * refused where it is read, instead of reaching a service as `DAT��`. Node's `isUtf8` (simdutf)
 * answers for the whole file at once; only a file that fails it is looked at line by line (a line
 * feed byte is never part of a longer UTF-8 sequence, so lines of bytes are lines of text). A
 * U+FFFD written in the file as its three UTF-8 bytes is text like any other.
 * @example
 * ```ts
 * decodeUtf8(Buffer.from('name: "DAT\xff\xfe"\n', 'latin1')).problems;
 * // [{ line: 1, column: 11, message: 'not UTF-8: the bytes ff fe at column 11 are not UTF-8 text (save the file as UTF-8)' }]
 * ```
 */
export function decodeUtf8(bytes: Uint8Array): { text: string; problems: Utf8Problem[] } {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    return { text: '', problems: [{ line: 1, column: 1, message: 'not UTF-8: the file is UTF-16 text (it starts with a UTF-16 byte-order mark): save it as UTF-8' }] };
  }
  const text = new TextDecoder('utf-8').decode(bytes);
  if (isUtf8(bytes)) return { text, problems: [] };
  const problems: Utf8Problem[] = [];
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let line = 1;
  for (let start = 0; start <= bytes.length; line++) {
    const newline = bytes.indexOf(0x0a, start);
    const end = newline === -1 ? bytes.length : newline;
    const lineBytes = bytes.subarray(start, end);
    if (!isUtf8(lineBytes)) {
      const found = firstUnreadable(lineBytes, decoder.decode(lineBytes));
      if (found) {
        // The text drops a byte-order mark; the line as decoded here still has it.
        const column = line === 1 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? found.column - 1 : found.column;
        const shown = found.bytes.map((b) => b.toString(16).padStart(2, '0')).join(' ');
        const what = found.bytes.length === 1 ? `the byte ${shown} at column ${column} is` : `the bytes ${shown} at column ${column} are`;
        problems.push({ line, column, message: `not UTF-8: ${what} not UTF-8 text (save the file as UTF-8)` });
      }
    }
    if (newline === -1) break;
    start = newline + 1;
  }
  return { text, problems };
}

/**
 * The first place of a line's bytes that is not UTF-8: its column in the line as decoded, and
 * the run of non-ASCII bytes there (at most four, to show).
 */
function firstUnreadable(lineBytes: Uint8Array, decoded: string): { column: number; bytes: number[] } | undefined {
  let byteOffset = 0;
  let from = 0;
  for (let at = decoded.indexOf(REPLACEMENT); at !== -1; at = decoded.indexOf(REPLACEMENT, at + 1)) {
    // Everything before `at` was read as written (an earlier U+FFFD was its own three bytes), so
    // its UTF-8 length is where `at` starts in the bytes.
    byteOffset += Buffer.byteLength(decoded.slice(from, at));
    from = at;
    if (lineBytes[byteOffset] === 0xef && lineBytes[byteOffset + 1] === 0xbf && lineBytes[byteOffset + 2] === 0xbd) continue;
    const run: number[] = [];
    for (let i = byteOffset; i < lineBytes.length && run.length < 4 && lineBytes[i]! >= 0x80; i++) run.push(lineBytes[i]!);
    return { column: at + 1, bytes: run };
  }
  return undefined;
}
