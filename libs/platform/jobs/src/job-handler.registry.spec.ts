import { JobHandlerRegistry } from './job-handler.registry';

describe('JobHandlerRegistry', () => {
  it('registers handlers by name, transactional unless told otherwise', () => {
    const registry = new JobHandlerRegistry();
    registry.register('a.one', async () => undefined);
    registry.register('a.two', async () => undefined, { transactional: false });
    expect(registry.names()).toEqual(['a.one', 'a.two']);
    expect(registry.get('a.one')?.transactional).toBe(true);
    expect(registry.get('a.two')?.transactional).toBe(false);
    expect(registry.get('a.three')).toBeUndefined();
  });

  it('refuses a second handler for one name and a malformed name', () => {
    const registry = new JobHandlerRegistry();
    registry.register('a.one', async () => undefined);
    expect(() => registry.register('a.one', async () => undefined)).toThrow(/already registered/);
    expect(() => registry.register('Bad:Name', async () => undefined)).toThrow(/dotted lower-case/);
  });

  it('passes the payload and context through to the handler', async () => {
    const registry = new JobHandlerRegistry();
    const received: unknown[] = [];
    registry.register<{ n: number }>('a.one', async (payload, ctx) => {
      received.push(payload.n, ctx.jobId);
    });
    const ctx = { jobId: 'job_1', attempt: 1, maxAttempts: 5, signal: new AbortController().signal, progress: async () => undefined };
    await registry.get('a.one')?.handler({ n: 7 }, ctx);
    expect(received).toEqual([7, 'job_1']);
  });
});
