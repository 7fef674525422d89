import { ColouredText, terminalLine, terminalOwnText, terminalText } from '../shared/escape.js';
import { OwnText, redact, withOwnPhrases } from '../shared/redact.js';

/** A writable stream as the CLI uses it (process.stdout, process.stderr, or a test's buffer). */
interface Stream {
  write(text: string): unknown;
  isTTY?: boolean;
}

/**
 * Everything a command touches of its process: streams, environment, stdin, signals.
 *
 * @remarks Runners and loggers take an `Io` so that tests run them in process with buffers.
 */
export interface Io {
  stdout: Stream;
  stderr: Stream;
  env: Record<string, string | undefined>;
  /** Reads stdin to its end (for `--token-stdin`). */
  readStdin(): Promise<string>;
  /** True when stdin is a terminal (nothing piped). */
  stdinIsTTY: boolean;
  /** Registers a Ctrl-C/SIGTERM handler; returns a function that removes it. */
  onInterrupt(handler: () => void): () => void;
}

/**
 * The real process as an {@link Io}.
 *
 * @returns an Io over process.stdout/stderr/stdin/env and SIGINT/SIGTERM
 */
export function processIo(): Io {
  // A reader that stops reading (`labelkit export --help | head -3`) closes the pipe: end quietly,
  // as a Unix tool ended by SIGPIPE does, instead of Node's stack for an unhandled EPIPE.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? 0);
  });
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    stdinIsTTY: process.stdin.isTTY === true,
    async readStdin() {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Buffer));
      return Buffer.concat(chunks).toString('utf8');
    },
    onInterrupt(handler) {
      process.on('SIGINT', handler);
      process.on('SIGTERM', handler);
      return () => {
        process.off('SIGINT', handler);
        process.off('SIGTERM', handler);
      };
    },
  };
}

/**
 * A line to print: a plain string (every control character in it is shown escaped), an own text
 * (labelkit's wording kept, its values escaped) or a line labelkit coloured (`coloured` of
 * `shared/escape`: its colour sequences kept).
 */
export type Line = string | OwnText | ColouredText;

/**
 * What commands print through: lines to stdout/stderr, each passed through the one redactor
 * (`shared/redact`). A line built with the `own` tag keeps labelkit's fixed wording even when a
 * secret is a common word; a plain string is redacted whole.
 */
export interface Printer {
  /** A line to stdout (the result). */
  out(line: Line): void;
  /** A line to stderr (progress, warnings, errors). */
  err(line: Line): void;
  /**
   * One JSON value on stdout (one line; `indent` spreads it over lines as `JSON.stringify` does),
   * redacted, but labelkit's field names such as `secretKey` stay whole; `phrases` are labelkit's
   * fixed phrases that a value may quote (kept as they are).
   */
  json(value: unknown, options?: { phrases?: readonly string[]; indent?: number }): void;
  /**
   * Many JSON values on stdout, one a line, each printed (and redacted) as {@link Printer.json}
   * prints it, written together in a few large writes: a 100,000-project plan is 100,000 lines,
   * and one write each was most of its printing.
   */
  jsonLines(values: Iterable<unknown>): void;
  /** Adds a secret that must never be printed. */
  addSecret(secret: string | undefined): void;
  /** The secrets known so far (for redacting text printed elsewhere, e.g. a progress bar). */
  readonly secrets: ReadonlyArray<string | undefined>;
}

/** How much text {@link Printer.jsonLines} gathers before it writes (64 Ki characters). */
const LINES_PER_WRITE_CHARS = 1 << 16;

/**
 * Creates the {@link Printer} of one command run.
 *
 * @param io - where to write
 * @returns a printer that redacts every secret it was told about, in every form it takes on the
 * wire (raw, JSON-escaped, URL-encoded, base64), and any `Bearer …`/`Basic …` credential
 * @remarks The last line of defence: secrets are kept out of messages in the first place, and
 * anything printed still passes through `redact` of `shared/redact`.
 */
export function createPrinter(io: Io): Printer {
  const secrets: (string | undefined)[] = [];
  const shown = (line: Line) => `${shownLine(line, secrets)}\n`;
  return {
    out: (line) => void io.stdout.write(shown(line)),
    err: (line) => void io.stderr.write(shown(line)),
    json: (value, options = {}) => void io.stdout.write(shown(jsonText(value, options.phrases ?? [], options.indent ?? 0))),
    jsonLines: (values) => {
      let text = '';
      for (const value of values) {
        text += shown(jsonText(value, [], 0));
        if (text.length >= LINES_PER_WRITE_CHARS) {
          io.stdout.write(text);
          text = '';
        }
      }
      if (text !== '') io.stdout.write(text);
    },
    addSecret: (secret) => void secrets.push(secret),
    secrets,
  };
}

/**
 * A line as the printer writes it: redacted (`shared/redact`) and with every control character
 * from elsewhere escaped (`shared/escape`): text from the service is data on a terminal too.
 *
 * @param line - a plain string (escaped whole), a coloured line (its colour sequences kept: its
 * values were escaped with `terminalText` before they were coloured) or an own text (its values
 * are escaped whole, colour and all; its fixed words are kept)
 * @param secrets - the secrets to redact
 * @returns the text to write
 * @remarks An own text is escaped before it is redacted, so that the redactor still sees which
 * parts are labelkit's wording; each secret is also looked for as escaped.
 */
function shownLine(line: Line, secrets: ReadonlyArray<string | undefined>): string {
  if (typeof line === 'string') return terminalLine(redact(line, secrets), false);
  if (line instanceof ColouredText) return terminalLine(redact(line.text, secrets), true);
  const escaped = secrets.flatMap((s) => (s === undefined || terminalText(s) === s ? [] : [terminalText(s)]));
  return redact(terminalOwnText(line), [...secrets, ...escaped]);
}

/**
 * labelkit's own field names that hold a word a secret may be (`secret`, `token`): in printed JSON
 * they stay whole (`"secretKey":"***"`, not `"***Key":"***"`). Other keys are redacted like values,
 * since a nested object from the service (a job error's `args`) may have any key.
 */
const OWN_KEYS = new Set(['secretKey', 'secretKeyEnv', 'secretKeyFile', 'clientSecret', 'clientSecretEnv', 'token', 'tokenUrl', 'accessToken', 'wrongSecretStatus']);

/**
 * A value as `JSON.stringify(value, null, indent)` writes it, as an {@link OwnText}: the
 * punctuation and the keys of {@link OWN_KEYS} are labelkit's own wording; every value, and any
 * other key, comes from elsewhere. In string values, `phrases` (labelkit's fixed phrases) are own
 * wording too.
 */
function jsonText(value: unknown, phrases: readonly string[], indent: number): OwnText {
  const fixed: string[] = [''];
  const values: unknown[] = [];
  const ownPart = (text: string) => void (fixed[fixed.length - 1] += text);
  const foreign = (text: string) => {
    values.push(phrases.length > 0 ? withOwnPhrases(text, phrases) : text);
    fixed.push('');
  };
  const walk = (v: unknown, depth: number): void => {
    const inner = indent > 0 ? `\n${' '.repeat(indent * (depth + 1))}` : '';
    const close = indent > 0 ? `\n${' '.repeat(indent * depth)}` : '';
    if (Array.isArray(v)) {
      if (v.length === 0) return ownPart('[]');
      ownPart('[');
      v.forEach((x, i) => {
        ownPart(`${i > 0 ? ',' : ''}${inner}`);
        walk(x, depth + 1);
      });
      ownPart(`${close}]`);
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v);
      if (entries.length === 0) return ownPart('{}');
      ownPart('{');
      entries.forEach(([k, x], i) => {
        ownPart(`${i > 0 ? ',' : ''}${inner}`);
        if (OWN_KEYS.has(k)) ownPart(JSON.stringify(k));
        else foreign(JSON.stringify(k));
        ownPart(indent > 0 ? ': ' : ':');
        walk(x, depth + 1);
      });
      ownPart(`${close}}`);
    } else foreign(JSON.stringify(v));
  };
  // Through JSON first, so that toJSON, undefined and functions come out as JSON.stringify writes
  // them; a flat object of plain values (a plan's line) comes out of that as it is, and is walked as it is.
  if (isFlatJson(value)) {
    walk(value, 0);
    return new OwnText(fixed, values);
  }
  const text = JSON.stringify(value);
  if (text === undefined) return new OwnText(['', ''], ['undefined']);
  walk(JSON.parse(text), 0);
  return new OwnText(fixed, values);
}

/** Whether a value is a plain object whose every value is a string, a finite number, a boolean or null: JSON.parse(JSON.stringify(value)) is then the same. */
function isFlatJson(value: unknown): value is Record<string, string | number | boolean | null> {
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return false;
  for (const v of Object.values(value)) {
    if (!(typeof v === 'string' || typeof v === 'boolean' || v === null || (typeof v === 'number' && Number.isFinite(v)))) return false;
  }
  return true;
}

/**
 * Whether to print colour on a stream.
 *
 * @param io - the process
 * @param stream - the stream that will be written
 * @returns true on a terminal unless `NO_COLOR` is set (any non-empty value); `FORCE_COLOR` (non-empty, not `0`) forces it
 * @see https://no-color.org
 */
export function useColor(io: Io, stream: Stream): boolean {
  if (io.env.NO_COLOR) return false;
  const force = io.env.FORCE_COLOR;
  if (force !== undefined && force !== '' && force !== '0') return true;
  return stream.isTTY === true && io.env.TERM !== 'dumb';
}
