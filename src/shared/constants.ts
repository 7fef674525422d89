/**
 * Numbers and lists that several rooms (client, CLI, emulator) must agree on, each given once.
 *
 * @remarks Imports nothing, so that the client (and its browser build) may use it.
 * @packageDocumentation
 */

/**
 * The roles a cabinet can be opened for, as the service's `Role` enum lists them.
 *
 * @example
 * ```ts
 * (ROLES as readonly string[]).includes('LABELER'); // true
 * ```
 */
export const ROLES = ['LABELER', 'REVIEWER'] as const;

/**
 * The longest delay `setTimeout` accepts (2^31-1 ms, about 24.8 days); a longer one fires at once.
 * A time-out at or above it (or `Infinity`) therefore means "no limit".
 *
 * @example
 * ```ts
 * const timer = timeoutMs < MAX_TIMER_MS ? setTimeout(onTimeout, timeoutMs) : undefined;
 * ```
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The largest value of a GraphQL `Int` (a signed 32-bit integer, 2^31-1).
 *
 * @example
 * ```ts
 * Number.isInteger(n) && n >= 0 && n <= MAX_GRAPHQL_INT;
 * ```
 */
export const MAX_GRAPHQL_INT = 2 ** 31 - 1;

/**
 * How long waiting for a job lasts unless told otherwise: 10 minutes. The client's `waitForJob`
 * and the CLI's `--timeout` both default to it.
 *
 * @example
 * ```ts
 * const timeoutMs = options.timeoutMs ?? DEFAULT_JOB_TIMEOUT_MS;
 * ```
 */
export const DEFAULT_JOB_TIMEOUT_MS = 600_000;

/**
 * The most label sets a project may have: production documents `index` 0 to 4. The client checks
 * `createLabelSet`'s index against it; the emulator enforces it.
 *
 * @example
 * ```ts
 * Number.isInteger(index) && index >= 0 && index < MAX_LABEL_SETS;
 * ```
 */
export const MAX_LABEL_SETS = 5;

/**
 * The largest request body the service takes, in bytes (1 MiB), as far as labelkit knows: the
 * emulator's limit (its `maxBodyBytes` default; a larger body gets 413 "Request body too large");
 * production publishes none. `label-sets plan` refuses a write that would be larger.
 *
 * @example
 * ```ts
 * if (bodyBytes > MAX_BODY_BYTES) problems.push('too large for one request');
 * ```
 */
export const MAX_BODY_BYTES = 1_048_576;

/**
 * The most job ids in one `getJobs` request of the shared job poll, and the most bytes of ids (a
 * quarter of {@link MAX_BODY_BYTES}): more waits are asked about in several requests per tick. A
 * poll of every id at once passed the emulator's 1 MiB limit near 96,000 jobs.
 *
 * @example
 * ```ts
 * if (chunk.length === JOB_POLL_CHUNK.ids || bytes + id.length > JOB_POLL_CHUNK.bytes) chunks.push((chunk = []));
 * ```
 */
export const JOB_POLL_CHUNK = { ids: 2_000, bytes: MAX_BODY_BYTES / 4 } as const;

/**
 * The heartbeats a worker of a shared (PostgreSQL) journal may choose, in ms: 50 ms to 10 minutes.
 * The journal's `heartbeatMs` and the CLI's `--heartbeat` both check against it.
 *
 * @example
 * ```ts
 * Number.isInteger(ms) && ms >= HEARTBEAT_MS.min && ms <= HEARTBEAT_MS.max;
 * ```
 */
export const HEARTBEAT_MS = { min: 50, max: 600_000 } as const;

/**
 * How long a many-project run waits for the service's answer to each start (the
 * `autoLabelTokenBasedProject` mutation), in ms: 5 minutes unless told (1 s to 1 hour), not the
 * client's 30 s. A start given up may still have started a job, so its project is unknown for
 * good; a slow answer costs only the wait. On a starved machine (8 workers on 2 cores) answers
 * passed 30 s and runs that were only slow ended with unknown projects. `autoLabelMany`'s
 * `startTimeoutMs` and the CLI's `--start-timeout` both check against it.
 *
 * @example
 * ```ts
 * Number.isInteger(ms) && ms >= START_TIMEOUT_MS.min && ms <= START_TIMEOUT_MS.max;
 * ```
 */
export const START_TIMEOUT_MS = { min: 1_000, max: 3_600_000, default: 300_000 } as const;

/**
 * The range of a many-project run's limits across all its workers: `--max-running` (jobs started
 * and not yet ended at once) and `--max-starts-per-minute`. `autoLabelMany`'s `maxRunning` and
 * `maxStartsPerMinute` and the CLI's flags both check against it.
 *
 * @example
 * ```ts
 * Number.isInteger(k) && k >= RUN_LIMITS.maxRunning.min && k <= RUN_LIMITS.maxRunning.max;
 * ```
 */
export const RUN_LIMITS = { maxRunning: { min: 1, max: 100_000 }, maxStartsPerMinute: { min: 1, max: 1_000_000 } } as const;

/**
 * The emulator's time-out of one model request of a job, in ms (the answer read included): 30 s
 * unless told, from 100 ms to 10 minutes. `labelkit emulator --model-timeout` checks against it;
 * the emulator's `model.timeoutMs` defaults to it.
 *
 * @example
 * ```ts
 * ms >= MODEL_TIMEOUT_MS.min && ms <= MODEL_TIMEOUT_MS.max;
 * ```
 */
export const MODEL_TIMEOUT_MS = { min: 100, max: 600_000, default: 30_000 } as const;

/** The deepest selection a GraphQL operation may nest in the emulator (the service's own documents need 3). */
export const MAX_QUERY_DEPTH = 8;

/** The most aliases one GraphQL operation may use in the emulator, `__typename` aliases included (the client's documents use 1). */
export const MAX_QUERY_ALIASES = 15;

/**
 * The most lexical tokens (names, punctuation, values) one GraphQL document may hold in the
 * emulator: the client's largest document has 58, GraphiQL's introspection query 184. A document
 * of 95,000 `__typename` fields or 20,000 `@include` directives is refused while it is read,
 * before it is parsed or validated, instead of holding the server for seconds.
 */
export const MAX_QUERY_TOKENS = 2_000;

/**
 * How deep lists and objects may nest in a data file labelkit reads (a label-set file, a saved
 * plan, the emulator's data folder): a label-set file needs 5 levels. A file nested deeper is
 * refused, naming the line, before a parser that recurses (jsonc-parser, YAML's composer) can run
 * out of stack on it.
 */
export const MAX_FILE_NESTING = 64;

/**
 * A label's colour as production documents it for writes: `#` and six hex digits, e.g. `#df3920`.
 * The client checks the colours it writes against it; the emulator enforces it.
 *
 * @example
 * ```ts
 * LABEL_COLOR.test('#df3920'); // true
 * ```
 */
export const LABEL_COLOR = /^#[0-9a-fA-F]{6}$/;

/**
 * The version of labelkit and labelkit-tools (released together, always the same): the client
 * sends it as `labelkit/<version>`, the CLI prints it for `--version`.
 *
 * @remarks A constant rather than a read of package.json, so that the client's browser build
 * needs no JSON import and `labelkit --help` loads no client; `test/client/version.test.ts`
 * checks that it equals the version of both packages' package.json.
 * @example
 * ```ts
 * `labelkit/${VERSION}`; // 'labelkit/0.1.0'
 * ```
 */
export const VERSION = '0.1.0';

/**
 * The two generations of the service's schema: `tags` (today's production: `tagItems`, `tagName`)
 * and `labels` (after the announced rename: `labelItems`, `labelName`).
 *
 * @remarks Here, not in `schemaGeneration.ts` (which loads the graphql package), so that the
 * client's published declarations name it without the graphql package.
 */
export type SchemaGeneration = 'tags' | 'labels';

/**
 * Both generations, today's first.
 *
 * @example
 * ```ts
 * SCHEMA_GENERATIONS.includes('labels'); // true
 * ```
 */
export const SCHEMA_GENERATIONS: readonly SchemaGeneration[] = ['tags', 'labels'];

/**
 * What the sample model (`labelkit model`, `createModelHandler`) answers, with HTTP 401, to a
 * request without the right secret. `labelkit model check` recognises it as labelkit's own
 * wording, so a secret that is a common word (`secret`) does not blank it out.
 */
export const MODEL_WRONG_SECRET_MESSAGE = 'missing or wrong secret: send Authorization: Bearer <secretKey>';

/**
 * How long a call already on its way may still take once a many-project run is stopped (Ctrl-C,
 * SIGTERM), in ms: a start's answer (so that its job id is journaled) or a journal write; then it
 * is given up, so that a stopped worker ends within a second whatever it was doing. A start given
 * up is `outcome-unknown` (it may have reached the service); it is never sent again.
 *
 * @example
 * ```ts
 * signal.addEventListener('abort', () => setTimeout(() => calls.abort(), STOP_GRACE_MS));
 * ```
 */
export const STOP_GRACE_MS = 400;
