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
 * A person waits for an analysis they asked for (a question created or forced), and for the work it starts:
 * those run before the per-document background jobs (ANALYSIS.md §2; issue 25). The others (a document changed,
 * the instance's running phase) are background work.
 */
export function analysisPriority(reason: QuestionAnalysisReason): NonNullable<EnqueueOptions['priority']> {
  return reason === 'created' || reason === 'forced' ? 'interactive' : 'background';
}

/** `ANALYSIS_JOB_OPTIONS` for an analysis started for `reason`. */
export function analysisJobOptions(reason: QuestionAnalysisReason): EnqueueOptions {
  return { ...ANALYSIS_JOB_OPTIONS, priority: analysisPriority(reason) };
}
