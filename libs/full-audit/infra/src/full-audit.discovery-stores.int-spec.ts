import { loadConfig } from '@svc/config';
import { Database, PLATFORM_MIGRATIONS } from '@svc/database';
import { CachedStatement, passageContentHash } from '@svc/full-audit-core';
import { createTestDatabase, TestDatabase, TestDatabaseMode } from '@svc/test-kit';
import { MigrationInterface, QueryRunner } from 'typeorm';
import { TypeOrmDiscoveryVerdicts, TypeOrmScanModelLedger, TypeOrmStatementCache } from './full-audit.discovery-stores';
import { AddFindingPairs1763700002100, AddJudgementDrift1763700001700, AddModelBatches1763700001800, AddModelBudgetDays1763700002300, AddModelDiscovery1763700002200, AddModelRejections1763700001900, CreateFullAuditSchema1763700001100 } from './full-audit.migration';
import { TypeOrmClaimStore, TypeOrmScanStore } from './full-audit.repositories';

/** The one workspace table the full-audit tables refer to. */
class AuditInstancesTable1763700000001 implements MigrationInterface {
  name = 'AuditInstancesTable1763700000001';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SCHEMA IF NOT EXISTS workspace`);
    await q.query(`CREATE TABLE workspace.audit_instances (id text PRIMARY KEY)`);
  }
  async down(): Promise<void> {}
}

const statement = (value: string): CachedStatement => ({
  subject: 'return window',
  attribute: 'duration',
  value,
  unit: 'days',
  valueKey: `duration:P${value}D`,
  scope: null,
  condition: null,
  modality: 'is',
  effectiveDate: null,
  span: `Returns within ${value} days.`,
  start: 0,
  end: 24,
});

/** Model-led discovery's stores (issue 24 item 3) on both databases the service runs on. */
describe.each<TestDatabaseMode>(['postgres', 'embedded'])('model discovery stores (%s)', (mode) => {
  let testDb: TestDatabase;
  let db: Database;

  beforeAll(async () => {
    testDb = await createTestDatabase(mode);
    db = await Database.open(loadConfig(testDb.env), {
      entities: [],
      migrations: [...PLATFORM_MIGRATIONS, AuditInstancesTable1763700000001, CreateFullAuditSchema1763700001100, AddJudgementDrift1763700001700, AddModelBatches1763700001800, AddModelRejections1763700001900, AddFindingPairs1763700002100, AddModelDiscovery1763700002200, AddModelBudgetDays1763700002300],
    });
    await db.unitOfWork.manager().query(`INSERT INTO workspace.audit_instances (id) VALUES ('ki_a'), ('ki_b')`);
  }, 120000);

  afterAll(async () => {
    await db?.close();
    await testDb?.drop();
  });

  it('caches statements by passage content and extractor version, per instance: another model, prompt, text or instance misses', async () => {
    const cache = new TypeOrmStatementCache(db.unitOfWork);
    const hash = passageContentHash({ text: 'Returns within 30 days.', headingPath: ['Returns'] });
    await cache.put('ki_a', [{ contentHash: hash, extractor: 'anthropic:m|statements-v1', statements: [statement('30')] }], new Date());
    const hit = await cache.get('ki_a', [{ contentHash: hash, extractor: 'anthropic:m|statements-v1' }]);
    expect([...hit.values()]).toEqual([[statement('30')]]);
    expect((await cache.get('ki_a', [{ contentHash: hash, extractor: 'anthropic:m|statements-v2' }])).size).toBe(0);
    expect((await cache.get('ki_a', [{ contentHash: passageContentHash({ text: 'Returns within 30 days.', headingPath: [] }), extractor: 'anthropic:m|statements-v1' }])).size).toBe(0);
    expect((await cache.get('ki_b', [{ contentHash: hash, extractor: 'anthropic:m|statements-v1' }])).size).toBe(0);
    // A passage read again replaces what was cached; a passage the model found nothing in is cached empty.
    await cache.put('ki_a', [{ contentHash: hash, extractor: 'anthropic:m|statements-v1', statements: [] }, { contentHash: hash, extractor: 'anthropic:m|statements-v1', statements: [] }], new Date());
    expect([...(await cache.get('ki_a', [{ contentHash: hash, extractor: 'anthropic:m|statements-v1' }])).values()]).toEqual([[]]);
  });

  it('remembers verdicts on pairs with the content versions they were judged on, and a verdict given again replaces it', async () => {
    const verdicts = new TypeOrmDiscoveryVerdicts(db.unitOfWork);
    const verdict = { contradiction: true, title: 'Return window', explanation: '30 days against 60 days.', question: 'Which return window applies?' };
    await verdicts.record('ki_a', [{ fingerprint: 'fp1', verdict, contentHashes: { kd_1: 'h1', kd_2: 'h2' } }], new Date());
    expect(await verdicts.of('ki_a', ['fp1', 'fp2'])).toEqual(new Map([['fp1', { verdict, contentHashes: { kd_1: 'h1', kd_2: 'h2' } }]]));
    await verdicts.record('ki_a', [{ fingerprint: 'fp1', verdict: { ...verdict, contradiction: false }, contentHashes: { kd_1: 'h1', kd_2: 'h3' } }], new Date());
    expect((await verdicts.of('ki_a', ['fp1'])).get('fp1')).toEqual({ verdict: { ...verdict, contradiction: false }, contentHashes: { kd_1: 'h1', kd_2: 'h3' } });
    expect((await verdicts.of('ki_b', ['fp1'])).size).toBe(0);
  });

  it("a scan's budget: calls are reserved until it is spent, then the scan is marked stopped by it; tokens add up; concurrent reservations never overspend", async () => {
    const scans = new TypeOrmScanStore(db.unitOfWork);
    const ledger = new TypeOrmScanModelLedger(db.unitOfWork);
    await scans.start({ id: 'fas_1', instanceId: 'ki_a', reason: 'demand', state: 'RUNNING', total: 2, chunks: 1, startedAt: new Date(), finishedAt: null, findings: null });
    const granted = await Promise.all(Array.from({ length: 5 }, () => ledger.reserve('fas_1', 3)));
    expect(granted.filter(Boolean)).toHaveLength(3);
    await ledger.spent('fas_1', { inputTokens: 100, outputTokens: 20 });
    await ledger.spent('fas_1', { inputTokens: 50, outputTokens: 5 });
    expect(await ledger.usage('fas_1')).toEqual({ calls: 3, inputTokens: 150, outputTokens: 25, stopped: 'budget' });
    // An outage afterwards does not hide why it stopped first.
    await ledger.stop('fas_1', 'outage');
    expect((await ledger.usage('fas_1')).stopped).toBe('budget');
  });

  it("the instances whose latest scan an outage stopped, once it is old enough; not once a later scan started", async () => {
    const scans = new TypeOrmScanStore(db.unitOfWork);
    const ledger = new TypeOrmScanModelLedger(db.unitOfWork);
    const at = (minutes: number) => new Date(Date.UTC(2026, 10, 28, 7, minutes));
    await db.unitOfWork.manager().query(`INSERT INTO workspace.audit_instances (id) VALUES ('ki_out1'), ('ki_out2')`);
    for (const [id, instanceId] of [['fas_o1', 'ki_out1'], ['fas_o2', 'ki_out2']]) {
      await scans.start({ id, instanceId, reason: 'instance', state: 'RUNNING', total: 1, chunks: 1, startedAt: at(0), finishedAt: null, findings: null });
      await ledger.stop(id, 'outage');
      await scans.complete(id, at(1), 0);
    }
    await scans.start({ id: 'fas_o3', instanceId: 'ki_out2', reason: 'demand', state: 'RUNNING', total: 1, chunks: 1, startedAt: at(5), finishedAt: null, findings: null });
    expect(await ledger.stoppedByOutage(at(1))).toEqual([]);
    expect(await ledger.stoppedByOutage(at(30))).toEqual(['ki_out1']);
  });

  it('outside scans, each instance has the budget per day: concurrent reservations never overspend it, the next day starts again', async () => {
    const ledger = new TypeOrmScanModelLedger(db.unitOfWork);
    const granted = await Promise.all(Array.from({ length: 5 }, () => ledger.reserveDay('ki_b', '2026-11-28', 2)));
    expect(granted.filter(Boolean)).toHaveLength(2);
    expect(await ledger.reserveDay('ki_a', '2026-11-28', 2)).toBe(true);
    expect(await ledger.reserveDay('ki_b', '2026-11-29', 2)).toBe(true);
    await ledger.spentDay('ki_b', '2026-11-28', { inputTokens: 7, outputTokens: 3 });
    const [row] = await db.unitOfWork.manager().query(`SELECT calls, input_tokens, output_tokens FROM full_audit.model_budget_days WHERE instance_id = 'ki_b' AND day = '2026-11-28'`);
    expect([row.calls, Number(row.input_tokens), Number(row.output_tokens)]).toEqual([2, 7, 3]);
  });

  it('forgets what can never be used again: statements of other extractors, verdicts on documents changed or gone', async () => {
    const cache = new TypeOrmStatementCache(db.unitOfWork);
    const verdicts = new TypeOrmDiscoveryVerdicts(db.unitOfWork);
    const claims = new TypeOrmClaimStore(db.unitOfWork);
    await db.unitOfWork.manager().query(`INSERT INTO workspace.audit_instances (id) VALUES ('ki_prune')`);
    await cache.put('ki_prune', [{ contentHash: 'h1', extractor: 'm|statements-v1', statements: [] }, { contentHash: 'h1', extractor: 'm|statements-v2', statements: [] }], new Date());
    expect(await cache.keepOnly('ki_prune', 'm|statements-v2')).toBe(1);
    expect((await cache.get('ki_prune', [{ contentHash: 'h1', extractor: 'm|statements-v2' }])).size).toBe(1);
    await claims.save('ki_prune', [
      { documentId: 'kd_1', contentHash: 'claims-v5+statements=m|statements-v2:c1', claims: [], changedAt: new Date() },
      { documentId: 'kd_2', contentHash: 'claims-v5:c2', claims: [], changedAt: new Date() },
    ]);
    const verdict = { contradiction: false, title: 't', explanation: 'e', question: 'q' };
    await verdicts.record(
      'ki_prune',
      [
        // Judged on the same contents (read by another reader version since): kept.
        { fingerprint: 'same', verdict, contentHashes: { kd_1: 'claims-v4:c1', kd_2: 'claims-v5:c2' } },
        { fingerprint: 'changed', verdict, contentHashes: { kd_1: 'claims-v5:c0', kd_2: 'claims-v5:c2' } },
        { fingerprint: 'gone', verdict, contentHashes: { kd_1: 'claims-v5:c1', kd_9: 'claims-v5:c9' } },
      ],
      new Date(),
    );
    expect(await verdicts.forgetStale('ki_prune')).toBe(2);
    expect([...(await verdicts.of('ki_prune', ['same', 'changed', 'gone'])).keys()]).toEqual(['same']);
  });

  it('a document keeps its model statements beside its claims; offline it reads as before', async () => {
    const store = new TypeOrmClaimStore(db.unitOfWork);
    const withModel = { documentId: 'kd_m', contentHash: 'v:h', claims: [], statements: [{ ...statement('30'), passageId: 'kn_1' }], changedAt: new Date(1000) };
    const offline = { documentId: 'kd_o', contentHash: 'v:h', claims: [], changedAt: new Date(1000) };
    await store.save('ki_b', [withModel, offline]);
    expect(await store.all('ki_b')).toStrictEqual([withModel, offline]);
  });
});
