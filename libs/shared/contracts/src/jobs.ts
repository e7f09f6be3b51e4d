/**
 * Names and payloads of background jobs: the contract between the context that enqueues and the
 * worker that runs them. Names follow `<context>.<verb>`. `JobPayloads` maps each name to its payload:
 * `JobQueue.enqueue(name, payload)` is checked against it, and each `*.job-handler.ts` declares which
 * name it handles.
 */
export interface JobPayloads {
  'workspace.run-step': WorkspaceRunStepPayload;
  'repository.index-document': RepositoryIndexDocumentPayload;
  'questions.analyze': QuestionsAnalyzePayload;
  'questions.analyze-instance': QuestionsAnalyzeInstancePayload;
  'questions.document-changed': DocumentChangedPayload;
  'full-audit.scan': FullAuditScanPayload;
  'full-audit.extract': FullAuditExtractPayload;
  'full-audit.judge': FullAuditJudgePayload;
  'full-audit.collect': FullAuditCollectPayload;
  'full-audit.document-changed': DocumentChangedPayload;
  'duplicates.identify': DuplicatesIdentifyPayload;
  'duplicates.document-changed': DocumentChangedPayload;
  'duplicates.verify': DuplicatesVerifyPayload;
  'missing-subjects.question-analyzed': QuestionAnalyzedPayload;
  'missing-subjects.searches-logged': SearchesLoggedPayload;
  'conflicts.document-changed': DocumentChangedPayload;
}

export type JobName = keyof JobPayloads;

export const JOB_NAMES = {
  workspaceRunStep: 'workspace.run-step',
  repositoryIndexDocument: 'repository.index-document',
  questionsAnalyze: 'questions.analyze',
  questionsAnalyzeInstance: 'questions.analyze-instance',
  questionsDocumentChanged: 'questions.document-changed',
  fullAuditScan: 'full-audit.scan',
  fullAuditExtract: 'full-audit.extract',
  fullAuditJudge: 'full-audit.judge',
  fullAuditCollect: 'full-audit.collect',
  fullAuditDocumentChanged: 'full-audit.document-changed',
  duplicatesIdentify: 'duplicates.identify',
  duplicatesDocumentChanged: 'duplicates.document-changed',
  duplicatesVerify: 'duplicates.verify',
  missingSubjectsQuestionAnalyzed: 'missing-subjects.question-analyzed',
  missingSubjectsSearchesLogged: 'missing-subjects.searches-logged',
  conflictsDocumentChanged: 'conflicts.document-changed',
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

/** Why a question is analysed: the question is new, an expert forced it, a document changed, or the instance started its running phase. */
export type QuestionAnalysisReason = 'created' | 'forced' | 'document' | 'instance';

export interface QuestionsAnalyzePayload {
  instanceId: string;
  questionId: string;
  reason: QuestionAnalysisReason;
}

export interface QuestionsAnalyzeInstancePayload {
  instanceId: string;
}

/**
 * Why a full scan runs: the instance reached RUNNING_PHASE, its schedule came round, or someone asked;
 * `settle`: documents changed since the last full judgement, enough to move the judge's word statistics,
 * so the stored claims are judged again as a whole (no document is read again).
 */
export type FullAuditScanReason = 'instance' | 'schedule' | 'demand' | 'settle';

export interface FullAuditScanPayload {
  instanceId: string;
  /** Default `instance`. */
  reason?: FullAuditScanReason;
}

/** One chunk of a scan: read the claims of these documents (a full scan's chunk names its scan). */
export interface FullAuditExtractPayload {
  instanceId: string;
  /** The full scan and its chunk number, or null for the documents a change named. */
  scan: { id: string; chunk: number } | null;
  documentIds: string[];
}

/** Judge the instance's claims: the whole repository once a full scan's chunks are read, else the changed documents. */
export interface FullAuditJudgePayload {
  instanceId: string;
}

/** Read the model's verdicts on candidates submitted in a batch, once it has ended, and raise those it confirms. */
export interface FullAuditCollectPayload {
  instanceId: string;
  batchId: string;
}

/** Duplicate identification over the whole repository (the work of step ON_DUPLICATE_IDENTIFICATION). */
export interface DuplicatesIdentifyPayload {
  instanceId: string;
}

/** Re-check a cluster an expert marked MANAGED against the repository. */
export interface DuplicatesVerifyPayload {
  instanceId: string;
  clusterId: string;
}

/**
 * A mandatory question was analysed: what the repository could not answer (the question itself when
 * REFUSED, and its companion questions that got no answer). Every analysis sends the whole list, so a
 * question the repository now answers is absent from it.
 */
export interface QuestionAnalyzedPayload {
  instanceId: string;
  organizationId: string;
  questionId: string;
  unanswered: { text: string; source: 'mandatory_question' | 'companion_question' }[];
}

/** Searches of an instance were logged (a burst is coalesced into one job): what they left unanswered may be a missing subject. */
export interface SearchesLoggedPayload {
  instanceId: string;
}

/** A document of a repository instance was indexed (new or changed content) or deleted. */
export interface DocumentChangedPayload {
  instanceId: string;
  documentId: string;
  change: 'indexed' | 'deleted';
}

/**
 * The jobs a document change fans out to (ANALYSIS.md §7): the repository enqueues one of each, in
 * the transaction that changed the document, without knowing the contexts that listen. A context that
 * reacts to document changes adds its job here.
 */
export const DOCUMENT_CHANGE_JOBS = ['questions.document-changed', 'full-audit.document-changed', 'duplicates.document-changed', 'conflicts.document-changed'] as const satisfies readonly JobName[];

/** The jobs an instance reaching RUNNING_PHASE fans out to (payload `{ instanceId }`): the questions asked before, the first full scan. */
export const RUNNING_PHASE_JOBS = ['questions.analyze-instance', 'full-audit.scan'] as const satisfies readonly JobName[];

/** The jobs each mandatory-question analysis fans out to, in the transaction that records it. */
export const QUESTION_ANALYSIS_JOBS = ['missing-subjects.question-analyzed'] as const satisfies readonly JobName[];

/** The jobs a logged search fans out to (payload `{ instanceId }`, one per instance at a time: enqueue with `searchLogJob`). */
export const SEARCH_LOG_JOBS = ['missing-subjects.searches-logged'] as const satisfies readonly JobName[];

/** Enqueue options of a search-log job: bursts of searches on one instance coalesce into one job a few seconds later. */
export const searchLogJob = (job: string, instanceId: string) => ({ dedupeKey: `${job}:${instanceId}`, delayMs: 2000 });

/**
 * Steps whose work another context does (payload `{ instanceId }`): entering the step queues these
 * jobs, and the context completes the step when its work is done (workspace `CompleteInstanceStep`).
 */
export const STEP_JOBS = { ON_DUPLICATE_IDENTIFICATION: ['duplicates.identify'] } as const satisfies Record<string, readonly JobName[]>;

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
