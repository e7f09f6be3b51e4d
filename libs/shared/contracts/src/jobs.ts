/**
 * Names and payloads of background jobs: the contract between the context that enqueues and the
 * worker that runs them. Queue names follow `<context>.<verb>`.
 */
export const JOB_NAMES = {
  workspaceRunStep: 'workspace.run-step',
} as const;
export type JobName = (typeof JOB_NAMES)[keyof typeof JOB_NAMES];

export interface WorkspaceRunStepPayload {
  instanceId: string;
  /** The step whose background work should run; a stale job (instance moved on) does nothing. */
  step: string;
}

export const REPOSITORY_JOB_NAMES = {
  indexDocument: 'repository.index-document',
} as const;

export interface RepositoryIndexDocumentPayload {
  instanceId: string;
  documentId: string;
  /** The content version to index; a job for an older version does nothing. */
  contentHash: string;
}
