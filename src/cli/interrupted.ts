/**
 * The user pressed Ctrl-C: the message says where the command stopped and what to do next.
 *
 * @remarks Exit code 130. Printed as `labelkit: MESSAGE`.
 */
export class Interrupted extends Error {
  override name = 'Interrupted';
}

/**
 * The user pressed Ctrl-C while the CLI waited; `jobIds` are the jobs that had not ended.
 *
 * @remarks Exit code 130. The jobs keep running on the service: Ctrl-C stops waiting, not the jobs.
 * @example
 * ```ts
 * throw new WaitInterrupted(['job-1']);
 * ```
 */
export class WaitInterrupted extends Interrupted {
  override name = 'WaitInterrupted';
  readonly jobIds: string[];
  constructor(jobIds: string[]) {
    super(
      jobIds.length > 0
        ? `interrupted; still running on the service: ${jobIds.join(' ')}`
        : 'interrupted; no job was still running',
    );
    this.jobIds = jobIds;
  }
}
