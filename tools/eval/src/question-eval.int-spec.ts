import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DynamicModule, INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { PERSISTENCE, repositoryContext } from '@svc/composition';
import { loadConfig, PlatformCoreModule } from '@svc/config';
import { DatabaseModule } from '@svc/database';
import { CreateRepositoryInstance, IndexDocument, IngestDocument, SearchSemanticNodes } from '@svc/repository-core';
import { Passage, QUESTION_RETRIEVAL } from '@svc/text';
import { createTestDatabase, TestDatabase } from '@svc/test-kit';
import { DataSource } from 'typeorm';
import { HELD_OUT, loadCorpus, RESULTS_DIR, ROOT } from './demo-corpus';
import { RetrievedQuestion, scoreDemo, scoreRamDocs } from './question-eval';
import { loadDemoQuestions, loadRamDocs } from './question-sets';


@Module({})
class EvalRootModule {}

function evalModule(env: Record<string, string>): DynamicModule {
  const config = loadConfig({ ...env, LOG_LEVEL: 'silent', DEMO_DATA: 'false' });
  return {
    module: EvalRootModule,
    imports: [PlatformCoreModule.forRoot(config), DatabaseModule.forRoot(PERSISTENCE), ...repositoryContext(config, { withControllers: false, runWorkers: false })],
  };
}

function gitCommit(): string | null {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
  } catch {
    return null;
  }
}

/**
 * Question-analysis quality (ANALYSIS.md §8) with the rule-based analyzer: the demo corpus with the
 * questions of tools/eval/questions.json, and the RAMDocs development split (every document of every
 * item in one repository instance, every question analysed over the whole instance). Retrieval is the
 * service's hybrid search on a fresh PostgreSQL database (faster than PGlite to index the 1,300 RAMDocs documents);
 * the analysis is the pure pipeline of @svc/text.
 */
describe('question analysis evaluation (rule-based analyzer, PostgreSQL)', () => {
  let db: TestDatabase;
  let app: INestApplicationContext;
  const corpus = loadCorpus();
  const questions = loadDemoQuestions();
  const paraphrases = loadDemoQuestions('paraphrases');
  const ramdocs = loadRamDocs();

  /** Ingests and indexes the documents; returns the external ids of those that could not be indexed. */
  async function ingest(instanceId: string, docs: { externalId: string; name: string; content: string; mediaType?: string }[]): Promise<string[]> {
    const attempt = { attempt: 1, maxAttempts: 1, progress: async () => undefined };
    const failed: string[] = [];
    for (const doc of docs) {
      const ingested = await app.get(IngestDocument).execute(instanceId, { externalId: doc.externalId, name: doc.name, url: null, owner: null, mediaType: doc.mediaType ?? 'text/plain', content: Buffer.from(doc.content, 'utf8') });
      const outcome = await app.get(IndexDocument).execute({ instanceId, documentId: ingested.id, contentHash: ingested.content_hash }, attempt);
      if (outcome !== 'indexed') failed.push(`${doc.externalId} (${outcome})`);
    }
    return failed;
  }

  /** Hybrid retrieval, then the analysis' passage selection; passages name their document by external id. */
  async function retrieve(instanceId: string, id: string, question: string): Promise<RetrievedQuestion> {
    const found = await app.get(SearchSemanticNodes).execute(instanceId, question, QUESTION_RETRIEVAL.candidates, 'hybrid');
    const docs: { id: string; external_id: string; name: string }[] = await app
      .get(DataSource)
      .query(`SELECT id, external_id, name FROM repository.documents WHERE instance_id = $1 AND id = ANY($2)`, [instanceId, [...new Set(found.semantic_nodes.map((n) => n.document_id))]]);
    const byId = new Map(docs.map((d) => [d.id, d]));
    const candidates: Passage[] = found.semantic_nodes.map((n, rank) => {
      const doc = byId.get(n.document_id);
      return { id: n.id, documentId: doc?.external_id ?? n.document_id, documentName: doc?.name, text: n.text, rank };
    });
    return { id, question, passages: candidates };
  }

  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    app = await NestFactory.createApplicationContext(evalModule(db.env), { logger: false, abortOnError: false });
  }, 60000);

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  const report: Record<string, unknown> = { evaluation: 'question-analysis', git_commit: gitCommit(), machine: { node: process.version, cpus: cpus().length } };
  const retrievedAll: RetrievedQuestion[] = [];

  it('demo corpus: raises every planted contradiction a question asks about, with its sides in different answer groups; no conflict on consistent questions; refuses what the corpus cannot answer', async () => {
    const { instanceId } = await app.get(CreateRepositoryInstance).execute({ organizationId: 'org_eval', name: 'Demo repository' });
    expect(await ingest(instanceId, corpus)).toEqual([]);
    const retrieved = [];
    for (const q of [...questions, ...paraphrases]) retrieved.push(await retrieve(instanceId, q.id, q.question));
    retrievedAll.push(...retrieved);
    const demo = scoreDemo(questions, retrieved);
    // Held-out rephrasings: reported, not tuned on (tools/eval/README.md).
    const reworded = scoreDemo(paraphrases, retrieved);
    report.paraphrases = reworded;
    console.log(`Paraphrases (${paraphrases.length}): ${reworded.results.map((r) => `${r.id} ${r.outcome === r.expected && r.sidesSeparated !== false ? 'ok' : `expected ${r.expected}, got ${r.outcome}${r.sidesSeparated === false ? ' (sides not separated)' : ''}`}`).join('; ')}`);
    report.demo = demo;
    console.log(`Demo corpus (${questions.length} questions): planted raised with sides separated ${demo.planted_raised_with_sides_separated}; ` +
      `false conflicts ${JSON.stringify(demo.false_conflicts_on_consistent_questions)}; REFUSED accuracy ${demo.refused_accuracy}; wrongly refused ${JSON.stringify(demo.wrongly_refused)}; ` +
      `decision ${JSON.stringify(demo.conflict_decision)}`);
    const failures = demo.results.filter((r) => r.outcome !== r.expected || r.sidesSeparated === false);
    expect(failures.map((f) => `${f.id}: expected ${f.expected}, got ${f.outcome}${f.sidesSeparated === false ? ' (sides not separated)' : ''} ${JSON.stringify(f.groups)}`)).toEqual([]);
  }, 300000);

  /** A corpus written blind by a helper that read none of the analysis code (tools/eval/<folder>): its questions, scored and printed. */
  async function heldOut(folder: string) {
    const directory = join(ROOT, 'tools', 'eval', folder);
    const held = loadDemoQuestions('questions', join(directory, 'questions.json'));
    const { instanceId } = await app.get(CreateRepositoryInstance).execute({ organizationId: 'org_eval', name: folder });
    expect(await ingest(instanceId, loadCorpus(directory))).toEqual([]);
    const retrieved = [];
    for (const q of held) retrieved.push(await retrieve(instanceId, q.id, q.question));
    retrievedAll.push(...retrieved.map((r) => ({ ...r, corpus: folder })));
    const scored = scoreDemo(held, retrieved);
    report[folder.replace(/-/gu, '_')] = scored;
    console.log(`${folder} (${held.length} questions): planted raised with sides separated ${scored.planted_raised_with_sides_separated}; ` +
      `false conflicts ${JSON.stringify(scored.false_conflicts_on_consistent_questions)}; REFUSED accuracy ${scored.refused_accuracy}; wrongly refused ${JSON.stringify(scored.wrongly_refused)}; ` +
      `decision ${JSON.stringify(scored.conflict_decision)}` +
      // A held-out corpus shows only its figures: its questions and answers would tell whoever reads the log what it contains.
      (HELD_OUT.includes(folder) ? '' : '\n') +
      scored.results.filter(() => !HELD_OUT.includes(folder)).filter((r) => r.outcome !== r.expected || r.sidesSeparated === false).map((r) => `  ${r.id} expected ${r.expected}, got ${r.outcome}${r.sidesSeparated === false ? ' (sides not separated)' : ''}: ${r.question} ${JSON.stringify(r.groups)}`).join('\n'));
    return scored;
  }

  it('third corpus (written blind; MCC 0.145 at its first measurement, then the general causes fixed): decisions beat always-conflict', async () => {
    const scored = await heldOut('third-corpus');
    // Always raising a conflict scores MCC 0.
    expect(scored.conflict_decision.mcc).toBeGreaterThan(0.6);
  }, 300000);

  it('fourth corpus (written blind; MCC 0.139 at its first measurement, then the general causes fixed): decisions beat always-conflict', async () => {
    const scored = await heldOut('fourth-corpus');
    expect(scored.conflict_decision.mcc).toBeGreaterThan(0.3);
  }, 300000);

  it('fifth corpus (written blind, held out: never read for fixes): decisions beat always-conflict', async () => {
    const scored = await heldOut('fifth-corpus');
    expect(scored.conflict_decision.mcc).toBeGreaterThan(0.2);
  }, 300000);

  it('sixth corpus (written blind with near and exact copies, held out: never read for fixes): decisions beat always-conflict', async () => {
    const scored = await heldOut('sixth-corpus');
    // First measurement (at 6e8cd6d): MCC 0.241; 0.362 once one clock time had one key (5e7d1cb, written before the corpus was measured).
    expect(scored.conflict_decision.mcc).toBeGreaterThan(0.3);
  }, 300000);

  it('eighth corpus (written blind, held out: never read for fixes): decisions beat always-conflict', async () => {
    const scored = await heldOut('eighth-corpus');
    // First measurement: MCC 0.156 (2 of 10 planted raised, 10 answerable questions refused); always-conflict scores 0.
    expect(scored.conflict_decision.mcc).toBeGreaterThan(0.1);
  }, 300000);

  it('seventh corpus (written blind; MCC 0.235 at its first measurement, then the general causes fixed): decisions beat always-conflict', async () => {
    const scored = await heldOut('seventh-corpus');
    expect(scored.conflict_decision.mcc).toBeGreaterThan(0.3);
  }, 300000);

  it('ninth corpus (written blind, a hotel group; read for fixes): no false conflict, fewer answerable questions refused', async () => {
    const scored = await heldOut('ninth-corpus');
    // First measurement (with the question forms and other words of this session): 0/10 planted raised, no false
    // conflict, 11 answerable questions refused; after the scene and false-friend readings, 5 refused. Its planted
    // conflicts are still not raised (one side found, the other not): the assertion keeps what holds.
    expect(scored.false_conflicts_on_consistent_questions).toEqual([]);
    expect(scored.wrongly_refused.length).toBeLessThanOrEqual(5);
  }, 300000);

  it('RAMDocs development split: beats both trivial baselines on MCC and on answer-group pairwise F1', async () => {
    const { instanceId } = await app.get(CreateRepositoryInstance).execute({ organizationId: 'org_eval', name: 'RAMDocs' });
    const started = Date.now();
    // Some RAMDocs documents are empty or hold no text a parser keeps: they are counted, as a repository would show them.
    const failed = await ingest(
      instanceId,
      ramdocs.flatMap((item, i) => item.documents.map((d, j) => ({ externalId: `ramdocs-${i}-${j}`, name: `RAMDocs item ${i} document ${j}`, content: d.text }))),
    );
    report.ramdocs_not_indexed = failed;
    expect(failed.length).toBeLessThan(20);
    report.ramdocs_ingest_ms = Date.now() - started;
    const retrieved = [];
    for (const [i, item] of ramdocs.entries()) retrieved.push(await retrieve(instanceId, `ramdocs-${i}`, item.question));
    retrievedAll.push(...retrieved);
    report.ramdocs_retrieval_ms = Date.now() - started - (report.ramdocs_ingest_ms as number);
    const scored = scoreRamDocs(ramdocs, retrieved);
    report.ramdocs = scored;
    const { per_item: _perItem, ...figures } = scored;
    console.log(`RAMDocs development split (ingest ${report.ramdocs_ingest_ms} ms, retrieval ${report.ramdocs_retrieval_ms} ms): ${JSON.stringify(figures, null, 1)}`);
    expect(scored.conflict_decision.mcc).toBeGreaterThan(scored.baseline_always_conflict.mcc);
    expect(scored.answer_groups_pairwise.f1).toBeGreaterThan(scored.baseline_one_group_per_document.f1);
    // Among the documents that answered, the groups beat both trivial groupings. Over every non-noise
    // document, one group for all scores higher: the documents that give no answer count as misses.
    expect(scored.answered_documents_pairwise.f1).toBeGreaterThan(Math.max(scored.answered_baseline_one_group_per_document.f1, scored.answered_baseline_one_group_for_all.f1));
  }, 600000);

  afterAll(() => {
    mkdirSync(RESULTS_DIR, { recursive: true });
    const stamp = new Date().toISOString().replace(/\.\d+Z$/, 'Z').replace(/:/g, '-');
    writeFileSync(join(RESULTS_DIR, `questions-${stamp}.json`), `${JSON.stringify(report, null, 2)}\n`);
    // The retrieved passages, for tuning the analysis without re-indexing (tools/eval/README.md).
    writeFileSync(join(RESULTS_DIR, 'question-passages.json'), `${JSON.stringify(retrievedAll)}\n`);
  });
});
