import { generateApiKey } from '@svc/identity-core';
import { RunningService, startService } from '@svc/test-kit';

/**
 * SIGTERM while 20 keep-alive clients keep calling: the service stops taking requests at once, answers
 * those in flight, closes every connection, and exits 0 well inside SHUTDOWN_TIMEOUT_MS (10 s here).
 */
describe('graceful shutdown under load (standalone, embedded)', () => {
  let service: RunningService;
  const adminKey = generateApiKey();

  beforeAll(async () => {
    service = await startService('embedded', { BOOTSTRAP_ADMIN_API_KEY: adminKey, SHUTDOWN_TIMEOUT_MS: '10000' });
  }, 90000);
  afterAll(async () => {
    await service?.destroy();
  });

  it('finishes what is in flight, refuses nothing it accepted, and exits 0 within a few seconds', async () => {
    const url = `${service.urls.audit}/audit/instance/list-instances-for-user`;
    const outcomes = { ok: 0, refused: 0, cut: [] as string[], other: [] as number[] };
    let stopAt = Number.POSITIVE_INFINITY;
    const client = async () => {
      // Each client keeps one keep-alive connection busy (fetch's pool), until the service is gone.
      for (;;) {
        try {
          const res = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' }, body: '{}' });
          await res.arrayBuffer();
          if (res.status === 200) outcomes.ok += 1;
          else outcomes.other.push(res.status);
        } catch (error) {
          const code = (error as { cause?: { code?: string } }).cause?.code ?? String(error);
          if (code === 'ECONNREFUSED') {
            outcomes.refused += 1;
            return;
          }
          outcomes.cut.push(`${code} at +${Date.now() - (stopAt - 15000)} ms`);
          if (Date.now() > stopAt) return;
        }
      }
    };
    const clients = Array.from({ length: 20 }, () => client());
    await new Promise((r) => setTimeout(r, 1500));
    const okBefore = outcomes.ok;
    const started = Date.now();
    stopAt = started + 15000;
    await service.stop();
    const shutdownMs = Date.now() - started;
    await Promise.all(clients);
    console.log(`shutdown under load: ${okBefore} answers before SIGTERM, ${outcomes.ok - okBefore} during it; exit in ${shutdownMs} ms; refused ${outcomes.refused}, cut ${outcomes.cut.length} (${[...new Set(outcomes.cut)].join(', ')}), other ${outcomes.other.join(',')}`);
    expect(okBefore).toBeGreaterThan(20);
    expect(service.exitCodes()).toEqual([0]);
    expect(shutdownMs).toBeLessThan(5000);
    expect(outcomes.other).toEqual([]);
    expect(outcomes.cut).toEqual([]);
    expect(outcomes.refused).toBe(20);
  }, 60000);
});
