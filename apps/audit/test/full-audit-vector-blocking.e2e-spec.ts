import { generateApiKey } from '@svc/identity-core';
import { Json, RunningService, startService, waitFor } from '@svc/test-kit';
import { FullAuditInstance } from './full-audit-instance';

/** Made-up product names, all different: `count` of them. */
function productNames(count: number): string[] {
  const syllables = ['ka', 'lo', 'mi', 'ru', 'te', 'vo', 'zu', 'pe', 'ni', 'sa', 'do', 'fi', 'gu', 'be', 'ho'];
  return Array.from({ length: count }, (_, i) => `${syllables[i % 15]}${syllables[Math.floor(i / 15) % 15]}${syllables[(i * 7 + 3) % 15]}x`);
}

/**
 * Vector-neighbour blocking (ANALYSIS.md §4.2, ADR 0042), on the service path: the node vectors the
 * repository indexed are read back with the passages, reduced to signatures stored with the claims, and
 * the judge compares statements of neighbouring passages. Here a refund catalogue of 70 statements (of
 * other products, in passages far from the rules') puts every word two refund rules share ("refund",
 * "request", "order", "process") in blocks too large to compare pair by pair, and a price list makes the repository large enough for those words to still say
 * what a statement is about. Without vector blocking the two rules are never compared (verified by
 * running this file with FULL_AUDIT_VECTOR_BAND=off: it times out); with it, their contradiction is raised.
 * Every document arrives after the first full scan and no settle runs, so the incremental judgement
 * finds its neighbours by their signature bands too. Embedded mode: the vectors are read from pgvector
 * there (the contract suite reads both databases).
 */
describe('full audit: statements of neighbouring passages compared (vector blocking, embedded)', () => {
  let service: RunningService;
  const adminKey = generateApiKey();
  let instance: FullAuditInstance;

  beforeAll(async () => {
    service = await startService('embedded', { BOOTSTRAP_ADMIN_API_KEY: adminKey, FULL_AUDIT_VECTOR_BAND: '0.7-0.99', FULL_AUDIT_SETTLE_SECONDS: '0', FULL_AUDIT_SWEEP_SECONDS: '1' });
    instance = await FullAuditInstance.create(service, adminKey, 'Vector blocking');
  }, 120000);
  afterAll(async () => {
    await service?.destroy();
  });

  it('raises the contradiction of two refund rules whose shared words are all too common to compare them by', async () => {
    const products = productNames(500);
    await instance.ingest('price-list.md', `# Price list\n\n${products.slice(0, 420).map((p, i) => `The discount on the ${p} is ${(i % 40) + 1}%.`).join('\n')}\n`);
    await instance.ingest('refund-catalogue.md', `# Refund catalogue\n\n${products.slice(420, 490).map((p, i) => `The ${p} refund request for an order is processed within ${(i % 9) + 2} days by the ${products[(i * 13) % 420]} desk, with the ${products[(i * 17 + 5) % 420]} form and the ${products[(i * 19 + 11) % 420]} label.`).join('\n')}\n`);
    await instance.ingest('refund-policy.md', '# Refunds\n\nA refund request for an order is processed within 14 days.\n');
    await instance.ingest('refund-faq.md', '# Refunds\n\nA refund request for an order is processed within 30 days.\n');

    const conflict = await waitFor(async () => {
      const items = (await instance.audit('/audit/full-audit/list', { instance_id: instance.instanceId, limit: 100 })).body.response.items as Json[];
      return items.find((c) => /14 days/u.test(c.explanation) && /30 days/u.test(c.explanation));
    }, 120000, 'the refund contradiction');
    expect(conflict.attribute).toBe('duration');
    expect(conflict.documents.map((d: Json) => d.document_name).sort()).toEqual(['refund-faq.md', 'refund-policy.md']);
    // The catalogue's passages are far from the rules' (each names its own products, desks and forms): none of its statements is compared with them.
    const all = (await instance.audit('/audit/full-audit/list', { instance_id: instance.instanceId, state_in: [], limit: 100 })).body.response.items as Json[];
    expect(all.filter((c) => c.documents.some((d: Json) => d.document_name === 'refund-catalogue.md'))).toEqual([]);

    // Incrementally too (no settle here: FULL_AUDIT_SETTLE_SECONDS=0): the changed FAQ is judged with the documents of its neighbouring passages.
    await instance.ingest('refund-faq.md', '# Refunds\n\nA refund request for an order is processed within 21 days.\n');
    const changed = await waitFor(async () => {
      const items = (await instance.audit('/audit/full-audit/list', { instance_id: instance.instanceId, limit: 100 })).body.response.items as Json[];
      return items.find((c) => /14 days/u.test(c.explanation) && /21 days/u.test(c.explanation));
    }, 120000, 'the changed contradiction');
    // One disagreement (ADR 0046): the FAQ changed its value, and the conflict, met through the policy's unchanged statement, says so.
    expect(changed.id).toBe(conflict.id);
    expect(changed.state).toBe('DETECTED');
    expect(changed.explanation).not.toMatch(/30 days/u);
  }, 240000);
});
