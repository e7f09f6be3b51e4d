/**
 * Names and payloads of background jobs: the contract between the context that enqueues and the
 * worker that runs them. Names follow `<context>.<verb>`. `JobPayloads` maps each name to its payload:
 * `JobQueue.enqueue(name, payload)` is checked against it, and each `*.job-handler.ts` declares which
 * name it handles.
 */
export interface JobPayloads {
  'workspace.run-step': WorkspaceRunStepPayload;
  'repository.index-document': RepositoryIndexDocumentPayload;
}

export type JobName = keyof JobPayloads;

export const JOB_NAMES = {
  workspaceRunStep: 'workspace.run-step',
  repositoryIndexDocument: 'repository.index-document',
} as const satisfies Record<string, JobName>;

export interface WorkspaceRunStepPayload {
  instanceId: string;
  /** The step whose background work should run; a stale job (instance moved on) does nothing. */
  step: string;
}

export interface RepositoryIndexDocumentPayload {
  instanceId: string;
  documentId: string;
  /** The content version to index; a job for an older version does nothing. */
  contentHash: string;
}

/**
 * The BullMQ queue of a job: its context (`repository.index-document` → `repository`). One queue per
 * context; its processor dispatches on the job's name.
 */
export function queueOf(jobName: string): string {
  const dot = jobName.indexOf('.');
  return dot > 0 ? jobName.slice(0, dot) : jobName;
}

/** The queues of the jobs above, one per context: what a worker process consumes. */
export const JOB_QUEUES: readonly string[] = [...new Set(Object.values(JOB_NAMES).map(queueOf))];
