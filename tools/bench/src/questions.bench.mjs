// Question-analysis benchmark (issue 11): the rule-based analysis of one mandatory question (the
// `questions.analyze` job's use case) at two repository sizes, on both databases; the throughput of
// 250 questions; and what set-answer costs beyond the recommendation writer (the model call).
//
//   npm run bench:questions
//   BENCH_SIZES=1000 BENCH_DATABASES=postgres node tools/bench/src/questions.bench.mjs
//
// Runs in-process against the BUILT workspace (dist/): a Nest application context with the modules the
// workers app assembles (identity, repository, workspace, conflicts, mandatory questions; no HTTP, no
// job workers), calling the use cases directly. For each database (embedded = PGlite in a fresh
// temporary DATA_DIR, postgres = a fresh database on 127.0.0.1:5432 via the test kit):
//   1. bootstrap an organisation and its admin, create an audit instance;
//   2. ingest and index the planted documents (three per planted question, each stating a figure; half
//      of the questions have one document disagree), then generated Markdown documents up to the size;
//   3. create the questions (planted ones and questions from the generator's vocabulary that nothing
//      answers), then analyse BENCH_QUESTIONS of them one after the other (AnalyzeQuestion.execute, as
//      the job does): latency p50/p99;
//   4. at the largest size, analyse BENCH_THROUGHPUT_QUESTIONS with JOBS_CONCURRENCY at once: questions/s;
//   5. set-answer (SetConflictAnswer.execute) on every conflict raised, BENCH_SET_ANSWER_ROUNDS times:
//      total latency, the writer's own time, and the overhead (total minus writer), p50/p99.
// Prints Markdown tables and writes JSON to tools/bench/results/questions-<timestamp>.json.
import { cpus } from 'node:os';
import { relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { builtWorkspace, checkDatabases, distFile, endRunSoon, envNumber, gitCommit, ingestAndIndex, latencySummary, machineInfo, progressBar, ROOT, round, writeResults } from './bench-kit.mjs';
import { Corpus, mulberry32 } from './corpus.mjs';

const envInteger = (name, fallback, options = {}) => envNumber(name, fallback, { integer: true, ...options });

const settings = {
  /** Repository sizes in documents, ascending: the instance grows from one to the next. */
  sizes: (process.env.BENCH_SIZES ?? '1000,10000').split(',').map((s) => Number(s.trim())).filter((n) => Number.isInteger(n) && n > 0).sort((a, b) => a - b),
  /** Questions planted in the documents (half with a disagreeing document). */
  planted: envInteger('BENCH_PLANTED_QUESTIONS', 60, { min: 2 }),
  /** Questions whose latency is measured at each size. */
  questions: envInteger('BENCH_QUESTIONS', 100, { min: 1 }),
  /** Questions analysed concurrently for the throughput figure (largest size). */
  throughputQuestions: envInteger('BENCH_THROUGHPUT_QUESTIONS', 250, { min: 0 }),
  /** Analyses in flight in the throughput phase (the workers' JOBS_CONCURRENCY default). */
  concurrency: envInteger('BENCH_CONCURRENCY', 2, { min: 1, max: 64 }),
  /** set-answer calls per conflict. */
  setAnswerRounds: envInteger('BENCH_SET_ANSWER_ROUNDS', 3, { min: 0 }),
  seed: envInteger('BENCH_SEED', 42),
  databases: (process.env.BENCH_DATABASES ?? 'embedded,postgres').split(',').map((m) => m.trim()).filter(Boolean),
};
if (settings.sizes.length === 0) throw new Error('BENCH_SIZES: give one or more document counts, e.g. 1000,10000');
if (settings.sizes[0] < settings.planted * 3) throw new Error(`BENCH_SIZES: the smallest size must hold the ${settings.planted * 3} planted documents`);
checkDatabases(settings.databases);

const { require, workersModule: benchModule } = builtWorkspace();
const { NestFactory } = require('@nestjs/core');
const { createTestDatabase } = require(distFile('tools', 'test-kit', 'src', 'index.js'));
const { BootstrapInstallation } = require(distFile('libs', 'identity', 'core', 'src', 'index.js'));
const { CreateAuditInstance, DEFAULT_CONFIGURATION } = require(distFile('libs', 'workspace', 'core', 'src', 'index.js'));
const { IngestDocument, IndexDocument } = require(distFile('libs', 'repository', 'core', 'src', 'index.js'));
const { AnalyzeQuestion, CreateMandatoryQuestion } = require(distFile('libs', 'mandatory-questions', 'core', 'src', 'index.js'));
const { ListQuestionConflicts, RecommendationWriter, SetConflictAnswer } = require(distFile('libs', 'conflicts', 'core', 'src', 'index.js'));

/**
 * The planted facts: question k asks how long "the <a> <b> review" takes, three documents state it
 * (a generated paragraph around the sentence); for even k one of them states another figure.
 */
function plantedSet(corpus, count) {
  const random = mulberry32(settings.seed + 7);
  const facts = [];
  for (let k = 0; k < count; k++) {
    corpus.startDocument();
    const subject = `${corpus.topics[corpus.topic][k % 20]} ${corpus.vocabulary[500 + k]}`;
    const days = 5 + Math.floor(random() * 40);
    const figures = k % 2 === 0 ? [days, days, days + 7] : [days, days, days];
    const documents = figures.map((figure, j) => {
      const before = corpus.paragraph(60).text;
      const after = corpus.paragraph(60).text;
      const sentence = j === 1 ? `A ${subject} review takes ${figure} days from the request.` : `The ${subject} review is completed within ${figure} days.`;
      return { name: `${subject} ${j}`, content: `# ${subject} (${j + 1})\n\n${before}\n\n${sentence} ${after}\n` };
    });
    facts.push({ question: `How long does the ${subject} review take?`, conflicting: k % 2 === 0, documents });
  }
  return facts;
}

const ingestAll = async (app, instanceId, docs, label) => (await ingestAndIndex(app, { IngestDocument, IndexDocument }, instanceId, docs, label)).seconds;

async function analyseEach(app, instanceId, questionIds, label) {
  const analyze = app.get(AnalyzeQuestion);
  const bar = progressBar(label, questionIds.length);
  const latencies = [];
  const outcomes = {};
  for (const questionId of questionIds) {
    const t = performance.now();
    const outcome = await analyze.execute({ instanceId, questionId, reason: 'forced' });
    latencies.push(performance.now() - t);
    outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    bar.tick();
  }
  bar.end();
  return { latency_ms: latencySummary(latencies), outcomes };
}

async function throughput(app, instanceId, questionIds, label) {
  const analyze = app.get(AnalyzeQuestion);
  const bar = progressBar(label, questionIds.length);
  const queue = [...questionIds];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: settings.concurrency }, async () => {
      for (let id = queue.shift(); id; id = queue.shift()) {
        await analyze.execute({ instanceId, questionId: id, reason: 'forced' });
        bar.tick();
      }
    }),
  );
  bar.end();
  const seconds = (performance.now() - t0) / 1000;
  return { questions: questionIds.length, concurrency: settings.concurrency, seconds: round(seconds, 1), questions_per_s: round(questionIds.length / seconds, 2) };
}

async function setAnswers(app, principal, access, label) {
  const conflicts = await app.get(ListQuestionConflicts).execute({ principal, access, page: { offset: 0, limit: 1000 }, states: ['OPEN', 'ANSWERED', 'RECOMMENDATIONS_READY'] });
  const writer = app.get(RecommendationWriter);
  const write = writer.write.bind(writer);
  let writerMs = 0;
  writer.write = async (request) => {
    const t = performance.now();
    try {
      return await write(request);
    } finally {
      writerMs += performance.now() - t;
    }
  };
  const setAnswer = app.get(SetConflictAnswer);
  const totals = [];
  const writers = [];
  const overheads = [];
  const items = conflicts.items ?? [];
  const bar = progressBar(label, items.length * settings.setAnswerRounds);
  for (let round_ = 0; round_ < settings.setAnswerRounds; round_++) {
    for (const conflict of items) {
      writerMs = 0;
      const t = performance.now();
      const figure = /\d+/.exec(conflict.answer_groups[0]?.answer ?? '')?.[0] ?? '10';
      await setAnswer.execute({ principal, access, conflictId: conflict.id, answer: `${figure} days` });
      const total = performance.now() - t;
      totals.push(total);
      writers.push(writerMs);
      overheads.push(total - writerMs);
      bar.tick();
    }
  }
  bar.end();
  writer.write = write;
  return { conflicts: items.length, calls: totals.length, writer: writer.name, total_ms: latencySummary(totals), writer_ms: latencySummary(writers), overhead_ms: latencySummary(overheads) };
}

async function benchDatabase(db) {
  process.stderr.write(`[${db}] fresh ${db === 'embedded' ? 'PGlite DATA_DIR' : 'PostgreSQL database on 127.0.0.1:5432'}...\n`);
  const testDb = await createTestDatabase(db);
  let app;
  try {
    const { config, module } = benchModule(testDb.env);
    app = await NestFactory.createApplicationContext(module, { logger: false, abortOnError: false });
    const installed = await app.get(BootstrapInstallation).execute({ organizationName: 'Bench', adminEmail: 'admin@bench.example', adminApiKey: undefined, adminPassword: undefined });
    const principal = { organizationId: installed.organizationId, userId: installed.adminUserId, roles: ['ADMIN'], credential: { kind: 'org_api_key', id: 'bench' } };
    const created = await app.get(CreateAuditInstance).execute(principal, { name: 'Bench repository' });
    const instanceId = created.instance_id;
    const now = new Date();
    const access = {
      instanceId,
      organizationId: installed.organizationId,
      isMember: true,
      isInstanceAdmin: true,
      isAdmin: true,
      instance: { id: instanceId, organizationId: installed.organizationId, name: 'Bench repository', step: 'RUNNING_PHASE', configuration: DEFAULT_CONFIGURATION, createdAt: now, updatedAt: now },
    };

    // Same seed for both databases: the same documents and questions in the same order.
    const corpus = new Corpus(settings.seed, 'topical');
    const facts = plantedSet(corpus, settings.planted);
    const plantedDocs = facts.flatMap((f, k) => f.documents.map((d, j) => ({ externalId: `planted-${k}-${j}`, ...d })));
    let documents = 0;
    const ingestion = [];
    const sizes = [];
    const asked = [];
    const create = app.get(CreateMandatoryQuestion);
    for (const size of settings.sizes) {
      const docs = documents === 0 ? [...plantedDocs] : [];
      for (let i = documents + docs.length; i < size; i++) {
        const doc = corpus.markdown();
        docs.push({ externalId: `bench-${i}`, name: `${doc.title}.md`, content: doc.content });
      }
      const seconds = await ingestAll(app, instanceId, docs, `[${db}] index to ${size} documents`);
      documents = size;
      ingestion.push({ documents: size, added: docs.length, seconds: round(seconds, 1), documents_per_s: round(docs.length / seconds, 1) });
      if (asked.length === 0) {
        // Planted questions, then questions in the repository's vocabulary that nothing answers.
        for (const f of facts) asked.push((await create.execute({ actor: principal, access, question: f.question })).id);
        const qc = new Corpus(settings.seed + 1, 'topical');
        while (asked.length < Math.max(settings.questions, settings.throughputQuestions)) {
          asked.push((await create.execute({ actor: principal, access, question: `How long does the ${qc.query()} take?` })).id);
        }
      }
      const measured = await analyseEach(app, instanceId, asked.slice(0, settings.questions), `[${db}] analyse at ${size}`);
      sizes.push({ documents: size, ...measured });
    }
    const largest = settings.sizes.at(-1);
    const through = settings.throughputQuestions > 0 ? await throughput(app, instanceId, asked.slice(0, settings.throughputQuestions), `[${db}] ${settings.throughputQuestions} questions, ${settings.concurrency} at once`) : null;
    const setAnswer = settings.setAnswerRounds > 0 ? await setAnswers(app, principal, access, `[${db}] set-answer`) : null;
    return { database: db, jobs_concurrency_default: config.JOBS_CONCURRENCY, ingestion, analysis: sizes, throughput: through ? { documents: largest, ...through } : null, set_answer: setAnswer ? { documents: largest, ...setAnswer } : null, bench_rss_mb_at_end: Math.round(process.memoryUsage().rss / 1024 ** 2) };
  } finally {
    await app?.close().catch((e) => process.stderr.write(`[${db}] close failed: ${e}\n`));
    await testDb.drop().catch((e) => process.stderr.write(`[${db}] drop failed: ${e}\n`));
  }
}

function tables(results) {
  const f = (v, d = 1) => (v === null || v === undefined ? '–' : Number(v).toFixed(d));
  const lines = ['### Analysis latency per question (rule-based, AnalyzeQuestion as the job runs it)', ''];
  lines.push('| Database | Documents | Questions | p50 (ms) | p90 (ms) | p99 (ms) | max (ms) | outcomes |');
  lines.push('|---|---:|---:|---:|---:|---:|---:|---|');
  for (const r of results) {
    for (const a of r.analysis) lines.push(`| ${r.database} | ${a.documents} | ${a.latency_ms.count} | ${f(a.latency_ms.p50)} | ${f(a.latency_ms.p90)} | ${f(a.latency_ms.p99)} | ${f(a.latency_ms.max)} | ${Object.entries(a.outcomes).map(([k, v]) => `${k} ${v}`).join(', ')} |`);
  }
  lines.push('', '### Throughput and set-answer', '');
  lines.push('| Database | Documents | Questions (concurrency) | questions/s | set-answer calls | total p50/p99 (ms) | writer p50/p99 (ms) | overhead p50/p99 (ms) |');
  lines.push('|---|---:|---|---:|---:|---|---|---|');
  for (const r of results) {
    const t = r.throughput;
    const s = r.set_answer;
    lines.push(`| ${r.database} | ${settings.sizes.at(-1)} | ${t ? `${t.questions} (${t.concurrency})` : '–'} | ${t ? f(t.questions_per_s, 2) : '–'} | ${s ? s.calls : '–'} | ${s ? `${f(s.total_ms.p50, 2)} / ${f(s.total_ms.p99, 2)}` : '–'} | ${s ? `${f(s.writer_ms.p50, 2)} / ${f(s.writer_ms.p99, 2)}` : '–'} | ${s ? `${f(s.overhead_ms.p50, 2)} / ${f(s.overhead_ms.p99, 2)}` : '–'} |`);
  }
  lines.push('', '### Indexation to each size', '');
  lines.push('| Database | Documents | added | seconds | docs/s |');
  lines.push('|---|---:|---:|---:|---:|');
  for (const r of results) for (const i of r.ingestion) lines.push(`| ${r.database} | ${i.documents} | ${i.added} | ${f(i.seconds)} | ${f(i.documents_per_s)} |`);
  return lines.join('\n');
}

async function main() {
  const startedAt = new Date();
  process.stderr.write(`bench: databases=${settings.databases.join(',')} sizes=${settings.sizes.join(',')} questions=${settings.questions} throughput=${settings.throughputQuestions}x${settings.concurrency} cpus=${cpus().length}\n`);
  const results = [];
  const t0 = performance.now();
  for (const db of settings.databases) results.push(await benchDatabase(db));
  const report = {
    benchmark: 'questions',
    started_at: startedAt.toISOString(),
    finished_at: new Date().toISOString(),
    total_s: round((performance.now() - t0) / 1000, 1),
    git_commit: gitCommit(),
    settings: { ...settings, method: 'in-process Nest application context (the workers app modules, no HTTP, no job workers); use cases called directly; rule-based analyzer' },
    machine: machineInfo(null),
    results,
  };
  const file = writeResults('questions', startedAt, report);
  console.log('');
  console.log(`## questions benchmark (sizes ${settings.sizes.join(', ')}, ${cpus().length} CPUs, node ${process.version}, ${report.total_s} s)`);
  console.log('');
  console.log(tables(results));
  console.log('');
  console.log(`Results: ${relative(ROOT, file)}`);
  endRunSoon();
}

await main();
