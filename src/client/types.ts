import type {
  AutoLabelTokenBasedProjectInput,
  AutoLabelTokenBasedProjectMutation,
  GetCabinetLabelSetsByIdQuery,
  GetCabinetQuery,
  JobFieldsFragment,
} from '../../generated/graphql.js';

export type { JobStatus, Role } from '../../generated/graphql.js';

/** A project's cabinet for one role: its `id` is the key to the label sets. */
export type Cabinet = GetCabinetQuery['getCabinet'];
/** A label set as labelkit reads it. */
export type LabelSet = GetCabinetLabelSetsByIdQuery['getCabinetLabelSetsById'][number];
/** One label of a label set (the service calls it a tag item). */
export type LabelItem = LabelSet['labelItems'][number];
/** A job read back with `getJob`/`getJobs`. */
export type Job = JobFieldsFragment;
/** One error of a job. */
export type JobErrorEntry = Job['errors'][number];
/** What `startAutoLabel` returns at once: the new job's id, status and progress. */
export type JobSnapshot = AutoLabelTokenBasedProjectMutation['result'];
/** The input of `startAutoLabel` (the service's `AutoLabelTokenBasedProjectInput`). */
export type AutoLabelInput = AutoLabelTokenBasedProjectInput;

/** How a wait for a job ended. Never a silent return: each case says what happened. */
export type JobOutcome =
  | { outcome: 'delivered'; jobId: string; job: Job }
  | { outcome: 'failed'; jobId: string; job: Job; errors: Job['errors'] }
  | { outcome: 'timed-out'; jobId: string; job: Job | null }
  | { outcome: 'not-found'; jobId: string; job: Job | null };
