import type { EnqueueOptions } from '@svc/kernel';

/**
 * How `questions.analyze` jobs are queued. A model-backed analysis depends on a provider that may be
 * out for minutes: twelve attempts with the jobs' exponential backoff (1 s doubling up to the 5-minute
 * cap, halved by jitter at worst) ride out about 10 to 20 minutes of outage, during which the question
 * stays `ANALYZING` and then completes, instead of failing after the default five attempts (~15 s).
 */
export const ANALYSIS_JOB_OPTIONS: EnqueueOptions = { maxAttempts: 12 };
