import { redact } from '../shared/redact.js';

/** A writable stream as the CLI uses it (process.stdout, process.stderr, or a test's buffer). */
export interface Stream {
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

/** What commands print through: lines to stdout/stderr, each passed through the one redactor (`shared/redact`). */
export interface Printer {
  /** A line to stdout (the result). */
  out(line: string): void;
  /** A line to stderr (progress, warnings, errors). */
  err(line: string): void;
  /** One JSON value as one line on stdout. */
  json(value: unknown): void;
  /** Adds a secret that must never be printed. */
  addSecret(secret: string | undefined): void;
  /** The secrets known so far (for redacting text printed elsewhere, e.g. a progress bar). */
  readonly secrets: ReadonlyArray<string | undefined>;
}

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
  return {
    out: (line) => void io.stdout.write(`${redact(line, secrets)}\n`),
    err: (line) => void io.stderr.write(`${redact(line, secrets)}\n`),
    json: (value) => void io.stdout.write(`${redact(JSON.stringify(value), secrets)}\n`),
    addSecret: (secret) => void secrets.push(secret),
    secrets,
  };
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
