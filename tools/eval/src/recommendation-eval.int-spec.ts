import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
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
import { DEMO_DIR, loadCorpus, RESULTS_DIR, ROOT } from './demo-corpus';
import type { RetrievedQuestion } from './question-eval';
import { loadDemoQuestions, QUESTIONS_FILE } from './question-sets';
import { measureRecommendations, printableMeasure, RecommendationMeasure } from './recommendation-eval';

@Module({})
class RecommendationEvalModule {}

function evalModule(env: Record<string, string>): DynamicModule {
  const config = loadConfig({ ...env, LOG_LEVEL: 'silent', DEMO_DATA: 'false' });
  return {
    module: RecommendationEvalModule,
    imports: [PlatformCoreModule.forRoot(config), DatabaseModule.forRoot(PERSISTENCE), ...repositoryContext(config, { withControllers: false, runWorkers: false })],
  };
}

/** The corpora with questions: the demo, and the blind ones (the fifth and the sixth held out: measured, never read for fixes). */
const CORPORA = [
  { name: 'demo', directory: DEMO_DIR, questions: QUESTIONS_FILE },
  ...['third-corpus', 'fourth-corpus', 'fifth-corpus', 'sixth-corpus'].map((folder) => ({ name: folder, directory: join(ROOT, 'tools', 'eval', folder), questions: join(ROOT, 'tools', 'eval', folder, 'questions.json') })),
].filter((c) => existsSync(c.questions));

/**
 * Recommendations after an expert answers (ANALYSIS.md §3, issue 25): on each corpus, every question the
 * rule-based analysis raises as CONFLICTS is answered with the value of its conflict's first answer group,
 * and the recommendations are drafted as the service drafts them (recommendation-eval.ts). Asserts that every
 * UPDATE's proposed text differs from its excerpt only inside the answering span; prints the counts and each
 * UPDATE as "excerpt => proposed" for a person to read (tools/eval/README.md says how they were read).
 */
describe('recommendations evaluation (rule-based analyzer and writer, PostgreSQL)', () => {
  let db: TestDatabase;
  let app: INestApplicationContext;
  const retrievedByCorpus: Record<string, RetrievedQuestion[]> = {};
  const measures: RecommendationMeasure[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    app = await NestFactory.createApplicationContext(evalModule(db.env), { logger: false, abortOnError: false });
  }, 60000);

  afterAll(async () => {
    await app?.close();
    await db?.drop();
    mkdirSync(RESULTS_DIR, { recursive: true });
    // The retrieved candidates, to measure the writer again without re-indexing (git-ignored).
    writeFileSync(join(RESULTS_DIR, 'recommendation-passages.json'), `${JSON.stringify(retrievedByCorpus)}\n`);
    const figures = measures.map(({ recommendations: _r, ...m }) => m);
    writeFileSync(join(RESULTS_DIR, 'recommendations-latest.json'), `${JSON.stringify(figures, null, 2)}\n`);
  });

  /** Ingests, indexes and retrieves each question as the analysis does (hybrid search, passages named by external id). */
  async function retrieveCorpus(name: string, directory: string, questionsFile: string): Promise<RetrievedQuestion[]> {
    const { instanceId } = await app.get(CreateRepositoryInstance).execute({ organizationId: 'org_eval', name });
    const attempt = { attempt: 1, maxAttempts: 1, progress: async () => undefined };
    for (const doc of loadCorpus(directory)) {
      const ingested = await app.get(IngestDocument).execute(instanceId, { externalId: doc.externalId, name: doc.name, url: null, owner: null, mediaType: doc.mediaType, content: Buffer.from(doc.content, 'utf8') });
      expect(await app.get(IndexDocument).execute({ instanceId, documentId: ingested.id, contentHash: ingested.content_hash }, attempt)).toBe('indexed');
    }
    const retrieved: RetrievedQuestion[] = [];
    for (const q of loadDemoQuestions('questions', questionsFile)) {
      const found = await app.get(SearchSemanticNodes).execute(instanceId, q.question, QUESTION_RETRIEVAL.candidates, 'hybrid');
      const docs: { id: string; external_id: string; name: string }[] = await app
        .get(DataSource)
        .query(`SELECT id, external_id, name FROM repository.documents WHERE instance_id = $1 AND id = ANY($2)`, [instanceId, [...new Set(found.semantic_nodes.map((n) => n.document_id))]]);
      const byId = new Map(docs.map((d) => [d.id, d]));
      const passages: Passage[] = found.semantic_nodes.map((n, rank) => ({ id: n.id, documentId: byId.get(n.document_id)?.external_id ?? n.document_id, documentName: byId.get(n.document_id)?.name, text: n.text, rank }));
      retrieved.push({ id: q.id, question: q.question, passages });
    }
    return retrieved;
  }

  it.each(CORPORA.map((c) => [c.name, c] as const))('%s: every UPDATE changes its excerpt only inside the answering span', async (_name, corpus) => {
    const retrieved = await retrieveCorpus(corpus.name, corpus.directory, corpus.questions);
    retrievedByCorpus[corpus.name] = retrieved;
    const measure = await measureRecommendations(corpus.name, retrieved);
    measures.push(measure);
    console.log(printableMeasure(measure));
    expect(measure.outsideSpan).toEqual([]);
  }, 300000);
});
