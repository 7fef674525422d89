import type { FieldNames } from '../../reportError.js';

/** The flag behind each path of the client's validation problems. */
export const AUTO_LABEL_FIELDS: FieldNames = {
  'input.projectId': '--project',
  'input.labelerEmail': '--labeler-email',
  'input.role': '--role',
  'input.options': '--files-per-request',
  'input.options.numberOfFilesPerRequest': '--files-per-request',
  'input.targetAPI': '--endpoint',
  'input.targetAPI.endpoint': '--endpoint',
  'input.targetAPI.secretKey': '--secret-key-env/--secret-key-file',
  // many projects: the journal check (a journal of another configuration)
  journal: '--journal',
  journalName: '--journal-name',
  heartbeatMs: '--heartbeat',
  // many projects: the run's limits, as another worker of the run fixed them
  'options.maxRunning': '--max-running',
  'options.maxStartsPerMinute': '--max-starts-per-minute',
};
