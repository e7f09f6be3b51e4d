import type { QuestionAnalysisReason } from '@svc/contracts';
import type { EnqueueOptions } from '@svc/kernel';

/**
 * How `questions.analyze` jobs are queued. A model-backed analysis depends on a provider that may be
 * out for minutes: twelve attempts with the jobs' exponential backoff (1 s doubling up to the 5-minute
 * cap, halved by jitter at worst) ride out about 10 to 20 minutes of outage, during which the question
 * stays `ANALYZING` and then completes, instead of failing after the default five attempts (~15 s).
 */
export const ANALYSIS_JOB_OPTIONS: EnqueueOptions = { maxAttempts: 12 };

/**
 * A person waits for an analysis they asked for (a question created or forced) once the instance is in its
 * running phase, and for the work it starts: those run before the per-document background jobs (issue 25).
 * Before the running phase the repository is still being indexed: the analysis keeps its place behind the
 * indexation (the running phase analyses every open question again anyway). The other reasons (a document
 * changed, the instance's running phase) are background work.
 */
export function analysisPriority(reason: QuestionAnalysisReason, running = true): NonNullable<EnqueueOptions['priority']> {
  return running && (reason === 'created' || reason === 'forced') ? 'interactive' : 'background';
}

/** `ANALYSIS_JOB_OPTIONS` for an analysis started for `reason`, `running`: the instance is in its running phase. */
export function analysisJobOptions(reason: QuestionAnalysisReason, running = true): EnqueueOptions {
  return { ...ANALYSIS_JOB_OPTIONS, priority: analysisPriority(reason, running) };
}
