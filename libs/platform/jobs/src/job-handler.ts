import { OnModuleInit } from '@nestjs/common';
import type { JobName, JobPayloads } from '@svc/contracts';
import { JobContext, JobFailure, JobHandlerRegistry } from './job-handler.registry';

/**
 * The handler of one job of the contracts' map, in its own `<job>.job-handler.ts` next to the module
 * that provides it: which job (`job`), whether its writes commit with the job's completion
 * (`transactional`), the work (`handle`, returning a short outcome the jobs platform logs: `indexed`,
 * `stale`, `advanced`...) and, optionally, what to mark when the job fails for good (`onFailed`).
 * Retrying is the jobs platform's decision alone (`retry-policy.ts`): a handler throws, it never
 * looks at attempt counts. It registers itself when its module starts.
 */
export abstract class JobHandlerOf<N extends JobName> implements OnModuleInit {
  abstract readonly job: N;
  /** See JobHandlerOptions.transactional (default true). */
  readonly transactional: boolean = true;

  protected constructor(private readonly registry: JobHandlerRegistry) {}

  abstract handle(payload: JobPayloads[N], ctx: JobContext): Promise<string>;

  /** See JobHandlerOptions.onFailed. */
  onFailed?(payload: JobPayloads[N], failure: JobFailure): Promise<void>;

  onModuleInit(): void {
    this.registry.register<JobPayloads[N]>(this.job, (payload, ctx) => this.handle(payload, ctx), {
      transactional: this.transactional,
      ...(this.onFailed ? { onFailed: (payload: JobPayloads[N], failure: JobFailure) => this.onFailed!(payload, failure) } : {}),
    });
  }
}
