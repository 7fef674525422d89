// Loaded at start-up (`labelkit --help` prints EXIT_CODE_HELP): imports nothing. The mapping of an
// error to a code, which needs the client's error guard, is exitCodeOf.ts.
/**
 * Exit codes of the `labelkit` command, exactly those of docs/CONTRACTS.md (CLI).
 *
 * @remarks `--help` and docs/cli.md list them; `exitCodeOf` (exitCodeOf.ts) is the one place that maps an
 * error to one of them.
 */
export const EXIT = {
  ok: 0,
  unexpected: 1,
  usage: 2,
  auth: 3,
  network: 4,
  jobFailed: 5,
  jobTimedOut: 6,
  jobNotFound: 7,
  /** `schema check`: the service breaks what labelkit uses; `documents check`: an app's operation breaks. */
  schemaIncompatible: 8,
  /** `label-sets plan --exit-code`: the plan has changes (the label sets differ from the file); `documents migrate --check`: a rewrite is due. */
  labelSetsDiffer: 9,
  /** `label-sets apply`: the sets changed since the plan, or while it wrote; nothing more was written. */
  labelSetsChanged: 10,
  /** `eval --fail-under`: the model's micro F1 is under the threshold. */
  f1BelowThreshold: 11,
  /** `eval --max-drop`: micro F1 or a label's F1 dropped more than allowed from the baseline, beyond noise. */
  f1Dropped: 12,
  /** `doctor`: the project's set-up has a finding. */
  doctorFindings: 13,
  interrupted: 130,
} as const;

/** One of the values of {@link EXIT}. */
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The exit-code table as printed by `labelkit --help`. */
export const EXIT_CODE_HELP = [
  'Exit codes:',
  '  0    success (jobs: every job DELIVERED; label-sets apply: also "nothing applied" when the answer was not yes)',
  '  1    unexpected error (also: the service answered with a GraphQL error; model check: an invalid answer)',
  '  2    invalid input or usage (every problem is listed; nothing was sent); label sets: a file that cannot',
  '       be applied (e.g. a set moved to another index), or a destructive step without --allow-destructive',
  '  3    authentication failed',
  '  4    network failure (service or model unreachable, HTTP error, unusable answer, time-out);',
  '       also a file that could not be written (a full disk; the old file is kept)',
  '  5    a job FAILED',
  '  6    waiting for a job timed out (--timeout)',
  '  7    a job was not found',
  '  8    schema check: the service\'s schema breaks what labelkit uses; documents check: an operation breaks',
  '  9    label-sets plan --exit-code: the label sets differ from the file (there is something to apply);',
  '       documents migrate --check: a rewrite is due',
  '  10   label-sets apply: the label sets changed since the plan (or while it wrote); nothing more was written (plan again)',
  '  11   eval --fail-under: the model\'s micro F1 is under the threshold',
  '  12   eval --max-drop: micro F1 or a label\'s F1 dropped from the --baseline report by more than allowed, beyond noise',
  '  13   doctor: a finding in the project\'s set-up (each printed with its fix)',
  '  130  interrupted (Ctrl-C)',
].join('\n');
