import type { RepositoryIndexDocumentPayload } from '@svc/contracts';
import { EnqueueOptions, JobQueue } from '@svc/kernel';
import { JobHandlerOf } from './job-handler';
import { JobContext, JobFailure, JobHandlerRegistry } from './job-handler.registry';

class RecordingQueue extends JobQueue {
  readonly sent: { name: string; payload: object; options?: EnqueueOptions }[] = [];
  async enqueueUntyped(name: string, payload: object, options?: EnqueueOptions): Promise<string> {
    this.sent.push({ name, payload, options });
    return `job_${this.sent.length}`;
  }
}

class IndexHandler extends JobHandlerOf<'repository.index-document'> {
  readonly job = 'repository.index-document';
  override readonly transactional = false;
  readonly failures: JobFailure[] = [];
  constructor(registry: JobHandlerRegistry) {
    super(registry);
  }
  async handle(payload: RepositoryIndexDocumentPayload, ctx: JobContext): Promise<string> {
    await ctx.progress(50);
    return payload.documentId === 'kd_stale' ? 'stale' : 'indexed';
  }
  override async onFailed(_payload: RepositoryIndexDocumentPayload, failure: JobFailure): Promise<void> {
    this.failures.push(failure);
  }
}

const ctx: JobContext = { jobId: 'job_1', attempt: 1, maxAttempts: 5, signal: new AbortController().signal, progress: async () => undefined };

describe('typed jobs', () => {
  it('enqueue takes a job name of the contracts and its payload type (checked by the compiler)', async () => {
    const queue = new RecordingQueue();
    await queue.enqueue('repository.index-document', { instanceId: 'ki_1', documentId: 'kd_1', contentHash: 'h' }, { dedupeKey: 'kd_1' });
    await queue.enqueue('workspace.run-step', { instanceId: 'ki_1', step: 'INIT' });
    // @ts-expect-error: a payload of another job
    await queue.enqueue('workspace.run-step', { instanceId: 'ki_1', documentId: 'kd_1', contentHash: 'h' });
    // @ts-expect-error: a name the contracts do not declare
    await queue.enqueue('repository.reindex-everything', {});
    expect(queue.sent.map((s) => s.name)).toEqual(['repository.index-document', 'workspace.run-step', 'workspace.run-step', 'repository.reindex-everything']);
    expect(queue.sent[0].options).toEqual({ dedupeKey: 'kd_1' });
  });

  it('a handler registers itself for its job with its options, and returns its outcome', async () => {
    const registry = new JobHandlerRegistry();
    const handler = new IndexHandler(registry);
    expect(registry.names()).toEqual([]);
    handler.onModuleInit();
    const registered = registry.get('repository.index-document');
    expect(registered).toMatchObject({ name: 'repository.index-document', transactional: false });
    expect(await registered!.handler({ instanceId: 'ki_1', documentId: 'kd_stale', contentHash: 'h' }, ctx)).toBe('stale');
    expect(await registered!.handler({ instanceId: 'ki_1', documentId: 'kd_2', contentHash: 'h' }, ctx)).toBe('indexed');
    await registered!.onFailed!({ instanceId: 'ki_1', documentId: 'kd_2', contentHash: 'h' }, { message: 'boom', attempts: 5 });
    expect(handler.failures).toEqual([{ message: 'boom', attempts: 5 }]);
    // Registering the same job twice is a wiring bug.
    expect(() => handler.onModuleInit()).toThrow(/already registered/);
  });
});
