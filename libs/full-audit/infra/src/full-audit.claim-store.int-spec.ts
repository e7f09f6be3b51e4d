import { loadConfig } from '@svc/config';
import { Database, PLATFORM_MIGRATIONS } from '@svc/database';
import { blockKey, ClaimBlock } from '@svc/full-audit-core';
import { claimBlocks, claimStemFrequencies, extractClaims, findContradictions, nameStem } from '@svc/text';
import { createTestDatabase, TestDatabase } from '@svc/test-kit';
import { MigrationInterface, QueryRunner } from 'typeorm';
import { AddFindingPairs1763700002100, AddJudgementDrift1763700001700, AddModelBatches1763700001800, AddModelBudgetDays1763700002300, AddModelDiscovery1763700002200, AddModelRejections1763700001900, CreateFullAuditSchema1763700001100 } from './full-audit.migration';
import { TypeOrmClaimStore } from './full-audit.repositories';

/** The one workspace table the full-audit tables refer to (the workspace context's own migration is its infra's). */
class AuditInstancesTable1763700000001 implements MigrationInterface {
  name = 'AuditInstancesTable1763700000001';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SCHEMA IF NOT EXISTS workspace`);
    await q.query(`CREATE TABLE workspace.audit_instances (id text PRIMARY KEY)`);
  }
  async down(): Promise<void> {}
}

/** The claim store's blocks on a real database: an incremental judgement loads what a full one compares. */
describe('TypeOrmClaimStore blocks (postgres)', () => {
  let testDb: TestDatabase;
  let db: Database;
  let store: TypeOrmClaimStore;

  beforeAll(async () => {
    testDb = await createTestDatabase('postgres');
    db = await Database.open(loadConfig(testDb.env), {
      entities: [],
      migrations: [...PLATFORM_MIGRATIONS, AuditInstancesTable1763700000001, CreateFullAuditSchema1763700001100, AddJudgementDrift1763700001700, AddModelBatches1763700001800, AddModelRejections1763700001900, AddFindingPairs1763700002100, AddModelDiscovery1763700002200, AddModelBudgetDays1763700002300],
    });
    store = new TypeOrmClaimStore(db.unitOfWork);
    await db.unitOfWork.manager().query(`INSERT INTO workspace.audit_instances (id) VALUES ('ki_blocks')`);
  });

  afterAll(async () => {
    await db?.close();
    await testDb?.drop();
  });

  it('stores counts of different nouns under the blocks the judge compares them by, so the changed document finds the other', async () => {
    const read = (id: string, text: string) => ({ documentId: id, contentHash: `h-${id}`, changedAt: new Date(0), claims: extractClaims({ id: `${id}#0`, documentId: id, text }, { language: 'fr' }) });
    const a = read('kd_a', "Un collaborateur assure au maximum quatre nuits d'astreinte par mois.");
    const b = read('kd_b', 'Aucun collaborateur ne peut assurer plus de 6 astreintes de nuit par mois.');
    // The full judgement compares them.
    expect(findContradictions([...a.claims, ...b.claims])).toHaveLength(1);
    await store.save('ki_blocks', [a, b]);
    // The blocks of the changed document, keyed as JudgeFullAudit keys them.
    const blocks = new Map<string, ClaimBlock>();
    for (const c of a.claims) for (const block of claimBlocks(c)) blocks.set(blockKey(block), block);
    const sizes = await store.blockSizes('ki_blocks', [...blocks.values()]);
    expect([...sizes.keys()].sort()).toEqual([...blocks.keys()].sort());
    expect(await store.documentsInBlocks('ki_blocks', [...blocks.values()])).toEqual(expect.arrayContaining(['kd_a', 'kd_b']));
  });

  it("gives the judge's statistics as it counts them in memory: claims per subject stem, documents per scope name", async () => {
    await db.unitOfWork.manager().query(`INSERT INTO workspace.audit_instances (id) VALUES ('ki_stats')`);
    const names = new Set(['ravensmere', 'york']);
    const read = (id: string, text: string) => ({ documentId: id, contentHash: `h-${id}`, changedAt: new Date(0), claims: extractClaims({ id: `${id}#0`, documentId: id, text }, { language: 'en', names }) });
    const documents = [
      read('kd_1', 'At Ravensmere, invoices are paid within 30 days. At Ravensmere, refunds take 14 days.'),
      read('kd_2', 'At Ravensmere York, invoices are paid within 20 days.'),
      read('kd_3', 'Refunds take 10 days.'),
      read('kd_4', 'No figure here at all.'),
    ];
    await store.save('ki_stats', documents);
    const all = documents.flatMap((d) => d.claims);
    const memory = claimStemFrequencies(all);
    const stems = ['invoic', 'refund', nameStem('ravensmere'), nameStem('york')];
    const stored = await store.statistics('ki_stats', stems);
    expect(stored.claims).toBe(all.length);
    // Documents with claims: the fourth has none.
    expect(stored.documents).toBe(3);
    for (const stem of stems) expect(stored.documentFrequency.get(stem)).toBe(memory.get(stem));
    // Ravensmere limits three claims in two documents: counted as two.
    expect(stored.documentFrequency.get(nameStem('ravensmere'))).toBe(2);
  });

  it('reads all the claims of an instance page by page: every document once, in id order, none of another instance', async () => {
    await db.unitOfWork.manager().query(`INSERT INTO workspace.audit_instances (id) VALUES ('ki_pages'), ('ki_other')`);
    const doc = (i: number) => ({ documentId: `kd_${String(i).padStart(4, '0')}`, contentHash: `h${i}`, changedAt: new Date(i * 1000), claims: extractClaims({ id: `kn_${i}`, documentId: `kd_${i}`, text: `Refunds are processed within ${i + 1} days.` }, { language: 'en' }) });
    // 250 documents: three pages of 100, the last one short.
    const documents = Array.from({ length: 250 }, (_, i) => doc(i));
    await store.save('ki_pages', [...documents].reverse());
    await store.save('ki_other', [doc(1000)]);
    const all = await store.all('ki_pages');
    expect(all.map((d) => d.documentId)).toEqual(documents.map((d) => d.documentId));
    expect(all[249]).toEqual({ ...documents[249], changedAt: new Date(249_000) });
  });
});
