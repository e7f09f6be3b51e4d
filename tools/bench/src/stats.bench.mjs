// Stats benchmark (issue 14): latency of `get-filtered-stats` and `get-my-dashboard` (and `get-daily-stats` over
// 30 days) at 10,000 documents, 1,000 mandatory questions, 5,000 question conflicts and 30 days of activity, on
// PGlite (embedded mode) and PostgreSQL (distributed mode), against the audit app's `GET /health/live` in the
// same run. Goal: both stats operations p99 <= 50 ms on PostgreSQL at that size.
//
//   npm run bench:stats
//   BENCH_MODES=distributed BENCH_CONCURRENCY=1 node tools/bench/src/stats.bench.mjs
//
// Per mode, against the BUILT service (tools/test-kit's startService, as instance-get.bench.mjs):
//   1. start the service on a fresh database, create one audit instance through the API (workspace rows,
//      repository instance, link and membership are the real ones) and wait for RUNNING_PHASE;
//   2. seed the audit contexts' rows by batched SQL (ingesting and analysing 10,000 documents through the API
//      would take hours): repository documents, mandatory questions, question conflicts with their
//      recommendations, full-audit conflicts, duplicate clusters, missing subjects and the activity log, with a
//      realistic mix of states (seeded generator). PostgreSQL: through `pg` while the service runs, then
//      VACUUM (ANALYZE) of the seeded tables. PGlite: the service is stopped, this process opens its DATA_DIR
//      with the service's own EmbeddedPostgres (PGlite on a socket), seeds, closes it, and the service starts
//      again on the same data (no ANALYZE: PGlite runs no autovacuum, a real embedded deployment has none);
//   3. times the stats statements themselves (captured from the built SqlStatsReadModel) with EXPLAIN ANALYZE;
//   4. checks through the API that every counter of the three operations is what was seeded (fails otherwise);
//   5. closed-loop load (N keep-alive connections, each sending its next request when the previous answer
//      arrives) on each route, for each concurrency of BENCH_CONCURRENCY.
// Prints Markdown tables and writes JSON to tools/bench/results/stats-<timestamp>.json. See tools/bench/README.md.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { URL } from 'node:url';
import { builtWorkspace, distFile, endRunSoon, envNumber, gitCommit, machineInfo, percentile, progressBar, ROOT, round, startBenchService, writeResults } from './bench-kit.mjs';
import { Corpus, mulberry32 } from './corpus.mjs';
import { cpuBetween, runLoad, sampleCpu } from './load-kit.mjs';

const envInteger = (name, fallback, options = {}) => envNumber(name, fallback, { integer: true, ...options });
const list = (name, fallback) => (process.env[name] ?? fallback).split(',').map((s) => s.trim()).filter(Boolean);

// ---------------------------------------------------------------------------------------------
// Settings (environment)
// ---------------------------------------------------------------------------------------------

const settings = {
  modes: list('BENCH_MODES', 'embedded,distributed'),
  /** Concurrent connections, one request in flight each; every route is measured at each value. */
  concurrencies: list('BENCH_CONCURRENCY', '1,4,16').map(Number),
  durationS: envNumber('BENCH_DURATION_S', 8, { min: 0.5, max: 600 }),
  warmupS: envNumber('BENCH_WARMUP_S', 2, { min: 0, max: 120 }),
  requestTimeoutMs: envInteger('BENCH_REQUEST_TIMEOUT_MS', 10000, { min: 100, max: 120000 }),
  /** Also load get-daily-stats (30 days, everyone). */
  daily: process.env.BENCH_DAILY !== '0',
  /** EXPLAIN ANALYZE of the stats statements on the seeded database. */
  explain: process.env.BENCH_EXPLAIN !== '0',
  /** REPOSITORY_CLIENT of the service (`local`: the audit app counts documents in-process; `http`: through the retrieval app). Empty: the service's default. */
  repositoryClient: process.env.BENCH_REPOSITORY_CLIENT ?? '',
  documents: envInteger('BENCH_DOCUMENTS', 10000, { min: 10 }),
  questions: envInteger('BENCH_QUESTIONS', 1000, { min: 10 }),
  conflicts: envInteger('BENCH_CONFLICTS', 5000, { min: 1 }),
  days: envInteger('BENCH_DAYS', 30, { min: 1, max: 366 }),
  fullAuditConflicts: envInteger('BENCH_FULL_AUDIT_CONFLICTS', 2000, { min: 0 }),
  duplicateClusters: envInteger('BENCH_DUPLICATE_CLUSTERS', 1000, { min: 0 }),
  missingSubjects: envInteger('BENCH_MISSING_SUBJECTS', 300, { min: 0 }),
  seedBatch: envInteger('BENCH_SEED_BATCH', 500, { min: 1, max: 2000 }),
  seed: envInteger('BENCH_SEED', 14),
  /** Keep the seeded database (PGlite DATA_DIR, PostgreSQL database) after the run, for EXPLAIN sessions. */
  keep: process.env.BENCH_KEEP === '1',
};
for (const mode of settings.modes) {
  if (mode !== 'embedded' && mode !== 'distributed') throw new Error(`BENCH_MODES: unknown mode "${mode}" (embedded, distributed)`);
}
for (const c of settings.concurrencies) {
  if (!Number.isInteger(c) || c < 1 || c > 1024) throw new Error(`BENCH_CONCURRENCY: "${c}" is not an integer in [1, 1024] (a comma-separated list, e.g. 1,16)`);
}
if (!['', 'local', 'http'].includes(settings.repositoryClient)) throw new Error(`BENCH_REPOSITORY_CLIENT: "${settings.repositoryClient}" (local, http)`);

const { require } = builtWorkspace();
const { Client } = require('pg');
const { newId } = require(distFile('libs', 'shared', 'kernel', 'src', 'index.js'));
const { EmbeddedPostgres } = require(distFile('libs', 'platform', 'database', 'src', 'embedded-postgres.js'));
const { SqlStatsReadModel } = require(distFile('libs', 'stats', 'infra', 'src', 'stats.read-model.js'));

const GOAL_P99_MS = 50;
const DAY_MS = 86_400_000;
const log = (line) => process.stderr.write(`${line}\n`);

// ---------------------------------------------------------------------------------------------
// The seeded audit: rows and the counters the API must answer
// ---------------------------------------------------------------------------------------------

/** Draws one of `weights`' keys with its weight. */
const pickWeighted = (random, weights) => {
  const total = Object.values(weights).reduce((a, b) => a + b, 0);
  let r = random() * total;
  for (const [key, w] of Object.entries(weights)) {
    r -= w;
    if (r < 0) return key;
  }
  return Object.keys(weights).at(-1);
};

const QUESTION_STATES = { PENDING: 3, ANALYZING: 1, REFUSED: 4, NO_CONFLICT: 30, CONFLICTS: 45, MANAGED: 15, IGNORED: 2 };
/** Conflict states of a question still in CONFLICTS (at least one unresolved is forced). */
const OPEN_QUESTION_CONFLICTS = { OPEN: 45, ANSWERED: 12, RECOMMENDATIONS_READY: 13, MANAGED: 22, IGNORED: 8 };
const MANAGED_QUESTION_CONFLICTS = { MANAGED: 85, IGNORED: 15 };
const UNRESOLVED = new Set(['OPEN', 'ANSWERED', 'RECOMMENDATIONS_READY']);
const FULL_AUDIT_STATES = { DETECTED: 40, REDETECTED: 5, MANAGED: 30, IGNORED: 15, DISAPPEARED: 10 };
const CLUSTER_STATES = { DETECTED: 60, MANAGED: 25, RESOLVED: 15 };
const SUBJECT_STATES = { PENDING: 60, MANAGED: 25, IGNORED: 15 };

/**
 * Every row to insert, and the counters the three operations must return for the instance's admin (who sees
 * every document). Timestamps fall in the last `days` UTC days (today included) and before `now`.
 */
function generateAudit({ instanceId, organizationId, svcInstanceId, adminUserId, now }) {
  const random = mulberry32(settings.seed);
  const corpus = new Corpus(settings.seed + 1, 'topical');
  const int = (min, max) => min + Math.floor(random() * (max - min + 1));
  const text = (words) => corpus.paragraph(words).text;
  const hex = (n) => createHash('sha256').update(String(random())).digest('hex').slice(0, n);
  const firstDay = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - (settings.days - 1) * DAY_MS;
  const span = now.getTime() - firstDay;
  /** A time after `after` (default: the range start) and before now. */
  const timeAfter = (after = firstDay) => new Date(after + random() * (now.getTime() - after));
  const users = [adminUserId, ...Array.from({ length: 6 }, () => newId('usr_'))];
  const actor = () => users[int(0, users.length - 1)];

  // Documents of the linked repository instance: all counted (none DELETED).
  const documents = [];
  for (let i = 0; i < settings.documents; i++) {
    const created = new Date(firstDay - int(0, 180) * DAY_MS + random() * DAY_MS);
    const name = `${corpus.title()} ${i}.md`;
    const state = random() < 0.98 ? 'INDEXED' : 'PARSING_ERROR';
    documents.push([newId('kd_'), svcInstanceId, `doc-${i}`, name, `https://intranet.example/docs/${i}`, null, '{}', 'text/markdown', int(800, 12000), hex(64), state, state === 'PARSING_ERROR' ? 'The file could not be parsed.' : null, created, created, state === 'INDEXED' ? created : null]);
  }
  const documentIds = documents.map((d) => d[0]);
  const someDocuments = (min, max) => {
    const n = int(min, max);
    const chosen = new Set();
    while (chosen.size < n) chosen.add(documentIds[int(0, documentIds.length - 1)]);
    return [...chosen].sort();
  };

  const activity = [];
  const act = (action, subjectId, at, after, who = actor()) =>
    activity.push([newId('act_'), organizationId, instanceId, action, subjectId, who, who ? 'api_key' : null, who ? newId('key_') : null, null, after === null ? null : JSON.stringify(after), at]);

  // Mandatory questions.
  const questions = [];
  for (let i = 0; i < settings.questions; i++) {
    const state = pickWeighted(random, QUESTION_STATES);
    const created = timeAfter();
    const analyzed = state === 'PENDING' ? null : timeAfter(created.getTime());
    const id = newId('mq_');
    questions.push({ id, state, row: [id, instanceId, organizationId, `${text(12).replace(/\.$/, '')}?`, state, state === 'MANAGED' ? text(20) : null, '[]', `{${someDocuments(3, 8).join(',')}}`, created, analyzed ?? created, analyzed] });
    act('audit_mandatory_question_create', id, created, { state: 'PENDING' });
    if (analyzed) {
      act('mandatory_question.analysis_started', id, analyzed, { state: 'ANALYZING' }, null);
      if (state !== 'ANALYZING') act('mandatory_question.analyzed', id, analyzed, { state }, null);
    }
    if (state === 'MANAGED') act('audit_mandatory_question_set_managed', id, timeAfter(analyzed.getTime()), { state: 'MANAGED' });
    if (state === 'IGNORED') act('audit_mandatory_question_set_ignored', id, timeAfter(analyzed.getTime()), { state: 'IGNORED' });
  }

  // Question conflicts over the questions that have some (CONFLICTS, MANAGED, IGNORED); every conflict
  // cites 2-3 documents; recommendations as the workflow leaves them (DRAFT once answered, PENDING once
  // MANAGED and APPLIED once carried out, DISCARDED on some ignored ones).
  const withConflicts = questions.filter((q) => ['CONFLICTS', 'MANAGED', 'IGNORED'].includes(q.state));
  if (withConflicts.length === 0) throw new Error('no question in a state with conflicts: raise BENCH_QUESTIONS');
  const conflictsOf = new Map(withConflicts.map((q) => [q.id, []]));
  const conflicts = [];
  const recommendations = [];
  for (let i = 0; i < settings.conflicts; i++) {
    // The first conflicts go one per question (each such question has one), the rest at random.
    const question = i < withConflicts.length ? withConflicts[i] : withConflicts[int(0, withConflicts.length - 1)];
    const weights = question.state === 'CONFLICTS' ? OPEN_QUESTION_CONFLICTS : question.state === 'MANAGED' ? MANAGED_QUESTION_CONFLICTS : { IGNORED: 1 };
    const state = pickWeighted(random, weights);
    const id = newId('qc_');
    const docs = someDocuments(2, 3);
    const detected = timeAfter();
    const answered = ['ANSWERED', 'RECOMMENDATIONS_READY', 'MANAGED'].includes(state) ? timeAfter(detected.getTime()) : null;
    const closed = state === 'MANAGED' || state === 'IGNORED' ? timeAfter((answered ?? detected).getTime()) : null;
    const values = docs.map(() => `${int(2, 60)} days`);
    const groups = docs.map((documentId, k) => ({
      key: `days:${values[k]}`,
      display: values[k],
      excerpts: [{ semanticNodeId: newId('kn_'), documentId, documentName: `Document ${documentId.slice(-6)}.md`, documentUrl: null, documentDate: null, text: text(45), extractedAnswer: values[k], spanStart: 10, spanEnd: 10 + values[k].length, kind: 'duration', normalizedKey: `days:${values[k]}`, normalizedValue: values[k], scope: [], confidence: 0.8 }],
    }));
    const c = { id, question: question.id, state, docs };
    conflicts.push(c);
    conflictsOf.get(question.id).push(c);
    c.row = [id, instanceId, organizationId, question.id, question.row[3], hex(32), state, answered ? values[0] : null, '[]', JSON.stringify(groups), '[]', `{${docs.join(',')}}`, docs[docs.length - 1], detected, closed ?? answered ?? detected, answered, closed, closed ? 'expert' : null, 1 + (answered ? 1 : 0) + (closed ? 1 : 0)];
    act('question_conflict.detected', id, detected, { state: 'OPEN', question_id: question.id, fingerprint: c.row[5], documents: docs }, null);
    if (answered) {
      act('audit_question_conflict_set_answer', id, answered, { state: 'ANSWERED', answer: values[0] });
      // Answered again, sometimes the same day.
      if (random() < 0.15) act('audit_question_conflict_set_answer', id, timeAfter(answered.getTime()), { state: 'ANSWERED', answer: values[0] });
    }
    if (state === 'MANAGED') act('audit_question_conflict_close', id, closed, { state: 'MANAGED' });
    if (state === 'IGNORED') act('audit_question_conflict_ignore', id, closed, { state: 'IGNORED' });
    const status = state === 'MANAGED' ? 'PENDING' : state === 'RECOMMENDATIONS_READY' ? 'DRAFT' : state === 'IGNORED' && random() < 0.3 ? 'DISCARDED' : null;
    if (status) {
      docs.forEach((documentId, k) => {
        const action = k === 0 ? 'KEEP' : pickWeighted(random, { UPDATE: 75, DELETE: 15, KEEP: 10 });
        const seconds = action === 'KEEP' ? 0 : int(60, 900);
        // A third of the accepted UPDATE/DELETE work was already carried out by the document's writers (APPLIED).
        const applied = status === 'PENDING' && action !== 'KEEP' && random() < 0.3 ? timeAfter(closed.getTime()) : null;
        const state = applied ? 'APPLIED' : status;
        recommendations.push({ conflict: id, documentId, action, status: state, seconds, row: [newId('rec_'), instanceId, id, documentId, action, text(30), action === 'UPDATE' ? text(30) : null, text(15), seconds, state, answered ?? detected, applied] });
      });
    }
  }
  for (const [questionId, ofQuestion] of conflictsOf) {
    // A question still in CONFLICTS keeps at least one unresolved conflict.
    const q = questions.find((x) => x.id === questionId);
    if (q.state === 'CONFLICTS' && !ofQuestion.some((c) => UNRESOLVED.has(c.state))) {
      const c = ofQuestion[0];
      for (let k = recommendations.length - 1; k >= 0; k--) if (recommendations[k].conflict === c.id) recommendations.splice(k, 1);
      for (let k = activity.length - 1; k >= 0; k--) if (activity[k][4] === c.id && activity[k][3] !== 'question_conflict.detected') activity.splice(k, 1);
      c.state = 'OPEN';
      Object.assign(c.row, { 6: 'OPEN', 7: null, 14: c.row[13], 15: null, 16: null, 17: null, 18: 1 });
    }
  }

  // Full-audit conflicts.
  const fullAudit = [];
  for (let i = 0; i < settings.fullAuditConflicts; i++) {
    const state = pickWeighted(random, FULL_AUDIT_STATES);
    const id = newId('fc_');
    const docs = someDocuments(2, 2);
    const detected = timeAfter();
    const settled = ['MANAGED', 'IGNORED'].includes(state) ? timeAfter(detected.getTime()) : null;
    const excerpts = docs.map((documentId) => ({ documentId, semanticNodeId: newId('kn_'), text: text(40), value: `${int(2, 60)} days` }));
    fullAudit.push({ state, row: [id, instanceId, organizationId, hex(32), state, 'duration', corpus.title().toLowerCase(), text(25), JSON.stringify(excerpts), `{${docs.join(',')}}`, '[]', '[]', random() < 0.2, state === 'MANAGED' ? text(10) : null, '[]', detected, settled ?? detected, settled ?? detected, settled, state === 'MANAGED' ? settled : null, state === 'DISAPPEARED' ? timeAfter(detected.getTime()) : null] });
    act('full_audit_conflict.detected', id, detected, { state: 'DETECTED' }, null);
    if (settled) {
      const action = random() < 0.5 ? 'audit_full_audit_set_state' : state === 'MANAGED' ? 'audit_full_audit_conflict_close' : 'audit_full_audit_conflict_ignore';
      act(action, id, settled, { state });
    }
  }

  // Duplicate clusters.
  const clusters = [];
  for (let i = 0; i < settings.duplicateClusters; i++) {
    const state = pickWeighted(random, CLUSTER_STATES);
    const id = newId('dup_');
    const created = timeAfter();
    const managed = state === 'MANAGED' ? timeAfter(created.getTime()) : null;
    clusters.push({ state, row: [id, instanceId, organizationId, state, `{${someDocuments(2, 3).join(',')}}`, hex(64), 0.85 + random() * 0.15, random() < 0.3, created, managed ?? created, managed, created] });
    act('duplicates.detected', id, created, { state: 'DETECTED' }, null);
    if (managed) act('audit_duplicate_set_managed', id, managed, { state: 'MANAGED' });
  }

  // Missing subjects.
  const subjects = [];
  for (let i = 0; i < settings.missingSubjects; i++) {
    const state = pickWeighted(random, SUBJECT_STATES);
    const id = newId('ms_');
    const created = timeAfter();
    const settled = state === 'PENDING' ? null : timeAfter(created.getTime());
    const profile = Object.fromEntries(Array.from({ length: 12 }, () => [corpus.word(), round(random(), 4)]));
    subjects.push({ state, row: [id, instanceId, organizationId, corpus.title().toLowerCase(), state, JSON.stringify(profile), int(2, 40), state === 'MANAGED' ? text(40) : null, null, created, settled ?? created] });
    act('missing_subject.detected', id, created, { state: 'PENDING' }, null);
    if (settled) act('audit_missing_subject_set_state', id, settled, { state });
  }

  // What the API must answer (the admin sees every document).
  const accepted = recommendations.filter((r) => (r.status === 'PENDING' || r.status === 'APPLIED') && (r.action === 'UPDATE' || r.action === 'DELETE'));
  const pending = accepted.filter((r) => r.status === 'PENDING');
  const perQuestion = new Map();
  for (const c of conflicts) perQuestion.set(c.question, (perQuestion.get(c.question) ?? false) || c.state === 'OPEN');
  const countState = (rows, ...states) => rows.filter((r) => states.includes(r.state)).length;
  const filtered = {
    total_questions: questions.length,
    questions_with_conflicts_to_manage: [...perQuestion.values()].filter(Boolean).length,
    questions_with_conflicts_analyzed: [...perQuestion.values()].filter((open) => !open).length,
    managed_questions: countState(questions, 'MANAGED'),
    questions_without_conflicts: countState(questions, 'NO_CONFLICT'),
    missing_subjects_count: subjects.length,
    total_conflicts: conflicts.length,
    managed_important_conflicts: conflicts.filter((c) => c.state === 'MANAGED' && accepted.some((r) => r.conflict === c.id)).length,
    documents_to_update_count: new Set(pending.map((r) => r.documentId)).size,
    documents_with_unmanaged_conflicts: new Set(conflicts.filter((c) => UNRESOLVED.has(c.state)).flatMap((c) => c.docs)).size,
    estimated_total_update_time: pending.reduce((a, r) => a + r.seconds, 0),
    questions_not_analyzed_yet: countState(questions, 'PENDING', 'ANALYZING'),
    total_documents: documents.length,
  };
  const dashboard = {
    unresolved_question_conflicts: conflicts.filter((c) => UNRESOLVED.has(c.state)).length,
    unresolved_full_audit_conflicts: countState(fullAudit, 'DETECTED', 'REDETECTED'),
    pending_mandatory_questions: countState(questions, 'PENDING', 'ANALYZING', 'CONFLICTS', 'REFUSED'),
    pending_missing_subjects: countState(subjects, 'PENDING'),
    pending_duplicate_clusters: countState(clusters, 'DETECTED'),
  };
  // The daily counters summed over the range, by the read model's rules (an answered conflict counts once a day).
  const day = (at) => at.toISOString().slice(0, 10);
  const entries = activity.map((a) => ({ action: a[3], subject: a[4], state: a[9] === null ? null : JSON.parse(a[9]).state, day: day(a[10]) }));
  const count = (f) => entries.filter(f).length;
  const daily = {
    conflicts_detected: count((e) => e.action === 'question_conflict.detected'),
    conflicts_answered: new Set(entries.filter((e) => e.action === 'audit_question_conflict_set_answer' || e.action === 'question_conflict.answered_by_question').map((e) => `${e.day} ${e.subject}`)).size,
    conflicts_managed: count((e) => e.action === 'audit_question_conflict_close'),
    conflicts_ignored: count((e) => e.action === 'audit_question_conflict_ignore'),
    full_audit_managed: count((e) => ['audit_full_audit_conflict_close', 'audit_full_audit_set_state'].includes(e.action) && e.state === 'MANAGED'),
    full_audit_ignored: count((e) => ['audit_full_audit_conflict_ignore', 'audit_full_audit_set_state'].includes(e.action) && e.state === 'IGNORED'),
    questions_created: count((e) => e.action === 'audit_mandatory_question_create'),
    questions_managed: count((e) => e.action === 'audit_mandatory_question_set_managed'),
    missing_subjects_managed: count((e) => e.action === 'audit_missing_subject_set_state' && e.state === 'MANAGED'),
    duplicates_managed: count((e) => e.action === 'audit_duplicate_set_managed'),
  };
  const states = (rows) => rows.reduce((acc, r) => ({ ...acc, [r.state]: (acc[r.state] ?? 0) + 1 }), {});
  return {
    range: { begin_date: day(new Date(firstDay)), end_date: day(now), span_h: round(span / 3600000, 1) },
    tables: {
      'repository.documents': {
        columns: ['id', 'instance_id', 'external_id', 'name', 'url', 'owner', 'extraproperties', 'media_type', 'size_bytes', 'content_hash', 'state', 'failure_reason', 'created_at', 'updated_at', 'indexed_at'],
        rows: documents,
      },
      'questions.mandatory_questions': {
        columns: ['id', 'instance_id', 'organization_id', 'question', 'state', 'answer', 'companion_questions', 'retrieved_document_ids', 'created_at', 'updated_at', 'analyzed_at'],
        rows: questions.map((q) => q.row),
      },
      'conflicts.question_conflicts': {
        columns: ['id', 'instance_id', 'organization_id', 'question_id', 'question', 'fingerprint', 'state', 'answer', 'scope', 'groups', 'companion_questions', 'document_ids', 'newest_document_id', 'created_at', 'updated_at', 'answered_at', 'closed_at', 'closed_by', 'version'],
        rows: conflicts.map((c) => c.row),
      },
      'conflicts.recommendations': {
        columns: ['id', 'instance_id', 'conflict_id', 'document_id', 'action', 'excerpt', 'proposed_text', 'reason', 'estimated_seconds', 'status', 'created_at', 'applied_at'],
        rows: recommendations.map((r) => r.row),
      },
      'full_audit.conflicts': {
        columns: ['id', 'instance_id', 'organization_id', 'fingerprint', 'state', 'attribute', 'subject', 'explanation', 'excerpts', 'document_ids', 'compagnon_questions', 'linked_questions', 'is_important', 'answer', 'compagnon_recommendations', 'created_at', 'updated_at', 'last_seen_at', 'answered_at', 'managed_at', 'absent_since'],
        rows: fullAudit.map((f) => f.row),
      },
      'duplicates.clusters': {
        columns: ['id', 'instance_id', 'organization_id', 'state', 'document_ids', 'canonical_hash', 'similarity', 'exact', 'created_at', 'updated_at', 'managed_at', 'last_verification_at'],
        rows: clusters.map((c) => c.row),
      },
      'missing_subjects.subjects': {
        columns: ['id', 'instance_id', 'organization_id', 'label', 'state', 'profile', 'question_count', 'proposition', 'proposition_key', 'created_at', 'updated_at'],
        rows: subjects.map((s) => s.row),
      },
      'activity.entries': {
        columns: ['id', 'organization_id', 'instance_id', 'action', 'subject_id', 'actor_user_id', 'credential_kind', 'credential_id', 'before', 'after', 'occurred_at'],
        rows: activity,
      },
    },
    mix: {
      questions: states(questions),
      question_conflicts: states(conflicts),
      recommendations: recommendations.reduce((acc, r) => ({ ...acc, [`${r.status} ${r.action}`]: (acc[`${r.status} ${r.action}`] ?? 0) + 1 }), {}),
      full_audit_conflicts: states(fullAudit),
      duplicate_clusters: states(clusters),
      missing_subjects: states(subjects),
      activity_entries: activity.length,
    },
    expected: { filtered, dashboard, daily },
  };
}

/** Inserts every table's rows in multi-row statements of `seedBatch` rows, one transaction per table. */
async function insertAll(client, tables, label) {
  const total = Object.values(tables).reduce((a, t) => a + t.rows.length, 0);
  const bar = progressBar(label, total);
  const t0 = performance.now();
  for (const [table, { columns, rows }] of Object.entries(tables)) {
    await client.query('BEGIN');
    for (let i = 0; i < rows.length; i += settings.seedBatch) {
      const batch = rows.slice(i, i + settings.seedBatch);
      const params = [];
      const tuples = batch.map((row) => {
        const base = params.length;
        params.push(...row);
        return `(${row.map((_, k) => `$${base + k + 1}`).join(', ')})`;
      });
      await client.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')}`, params);
      bar.tick(batch.length);
    }
    await client.query('COMMIT');
  }
  bar.end();
  return (performance.now() - t0) / 1000;
}

// ---------------------------------------------------------------------------------------------
// The stats statements, captured from the built read model, and their plans
// ---------------------------------------------------------------------------------------------

/** The SQL and parameters SqlStatsReadModel sends for each operation (a recording unit of work, no database). */
async function statsStatements(instanceId, range) {
  const captured = [];
  const uow = { manager: () => ({ query: async (sql, params) => (captured.push({ sql, params }), [{}]) }) };
  const model = new SqlStatsReadModel(uow);
  const statements = [];
  for (const [name, run] of [
    ['filtered', () => model.filtered(instanceId, 'all')],
    ['dashboard', () => model.dashboard([{ instanceId, visible: 'all' }])],
    ['daily', () => model.daily(instanceId, new Date(`${range.begin_date}T00:00:00Z`), new Date(Date.parse(`${range.end_date}T00:00:00Z`) + DAY_MS), null, 'all')],
  ]) {
    captured.length = 0;
    await run();
    statements.push(...captured.map((c, i) => ({ name: captured.length > 1 ? `${name} #${i + 1}` : name, ...c })));
  }
  return statements;
}

const median = (values) => percentile([...values].sort((a, b) => a - b), 50);

/** Client round trip (20 runs after 3 unmeasured), then EXPLAIN (ANALYZE, BUFFERS) 5 times: medians, and the last plan. */
async function explainAll(client, statements, extra) {
  const out = [];
  for (const s of [...statements, ...extra]) {
    for (let i = 0; i < 3; i++) await client.query(s.sql, s.params);
    const trips = [];
    for (let i = 0; i < 20; i++) {
      const t = performance.now();
      await client.query(s.sql, s.params);
      trips.push(performance.now() - t);
    }
    const executions = [];
    const planning = [];
    let plan = '';
    for (let i = 0; i < 5; i++) {
      const res = await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${s.sql}`, s.params);
      const lines = res.rows.map((r) => r['QUERY PLAN']);
      executions.push(Number(/Execution Time: ([\d.]+)/.exec(lines.join('\n'))?.[1]));
      planning.push(Number(/Planning Time: ([\d.]+)/.exec(lines.join('\n'))?.[1]));
      plan = lines.join('\n');
    }
    out.push({ statement: s.name, round_trip_ms_p50: round(median(trips)), round_trip_ms_max: round(Math.max(...trips)), execution_ms_p50: round(median(executions)), planning_ms_p50: round(median(planning)), plan });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// CPU and memory of the service (Linux /proc)
// ---------------------------------------------------------------------------------------------

function processMemoryMb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name) => {
      const m = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status);
      return m ? round(Number(m[1]) / 1024, 0) : null;
    };
    return { rss: field('VmRSS'), peak: field('VmHWM') };
  } catch {
    return { rss: null, peak: null };
  }
}

const serviceMemory = (service) => Object.fromEntries(Object.entries(service.pids()).map(([app, pid]) => [app, processMemoryMb(pid)]));

// ---------------------------------------------------------------------------------------------
// One mode
// ---------------------------------------------------------------------------------------------

/** Every field of `expected` against `actual`: the differences, empty when all agree. */
const differences = (what, expected, actual) =>
  Object.entries(expected)
    .filter(([k, v]) => actual?.[k] !== v)
    .map(([k, v]) => `${what}.${k}: expected ${v}, got ${JSON.stringify(actual?.[k])}`);

async function benchMode(mode, registerCleanup) {
  const env = settings.repositoryClient ? { REPOSITORY_CLIENT: settings.repositoryClient } : {};
  const { service, adminKey, audit, instanceId } = await startBenchService(mode, env, 'Stats bench', registerCleanup, { instanceKey: false });
  let step = '';
  for (const deadline = Date.now() + 60000; Date.now() < deadline; await sleep(200)) {
    step = (await audit('/audit/instance/get-instance', { instance_id: instanceId })).body?.response?.step;
    if (step === 'RUNNING_PHASE') break;
  }
  if (step !== 'RUNNING_PHASE') throw new Error(`[${mode}] instance ${instanceId} still at ${step} after 60 s`);
  log(`[${mode}] instance ${instanceId} at RUNNING_PHASE`);

  // The database: PostgreSQL while the service runs; PGlite with the service stopped (one owner at a time).
  let embedded;
  let connection;
  if (mode === 'embedded') {
    await service.stop();
    embedded = new EmbeddedPostgres(service.env.DATA_DIR);
    const c = await embedded.start();
    connection = { host: c.host, port: c.port, user: c.username, database: c.database };
  } else {
    connection = { connectionString: service.env.DATABASE_URL };
  }
  const client = new Client(connection);
  await client.connect();
  let seeded;
  let explained = [];
  try {
    if (mode === 'distributed') {
      // The full scan queued on entering RUNNING_PHASE (no documents yet) must not read the seeded ones.
      for (const deadline = Date.now() + 30000; Date.now() < deadline; await sleep(200)) {
        if (Number((await client.query(`SELECT count(*) AS n FROM full_audit.scans WHERE instance_id = $1 AND state = 'RUNNING'`, [instanceId])).rows[0].n) === 0) break;
      }
    }
    const [instance] = (await client.query(`SELECT i.organization_id, l.svc_instance_id FROM workspace.audit_instances i JOIN workspace.repository_links l ON l.instance_id = i.id WHERE i.id = $1`, [instanceId])).rows;
    const [admin] = (await client.query(`SELECT user_id FROM workspace.instance_members WHERE instance_id = $1 ORDER BY added_at LIMIT 1`, [instanceId])).rows;
    const tg = performance.now();
    const generated = generateAudit({ instanceId, organizationId: instance.organization_id, svcInstanceId: instance.svc_instance_id, adminUserId: admin?.user_id ?? newId('usr_'), now: new Date() });
    const generateS = (performance.now() - tg) / 1000;
    const insertS = await insertAll(client, generated.tables, `[${mode}] seed (SQL)`);
    let analyzeS = null;
    if (mode === 'distributed') {
      // What autovacuum would do soon after such a load, done now so that it does not run during the measurements.
      const ta = performance.now();
      for (const table of Object.keys(generated.tables)) await client.query(`VACUUM (ANALYZE) ${table}`);
      analyzeS = (performance.now() - ta) / 1000;
    }
    seeded = { generate_s: round(generateS, 1), insert_s: round(insertS, 1), vacuum_analyze_s: round(analyzeS, 1), range: generated.range, mix: generated.mix, rows: Object.fromEntries(Object.entries(generated.tables).map(([t, v]) => [t, v.rows.length])), expected: generated.expected };
    log(`[${mode}] seeded ${Object.values(seeded.rows).reduce((a, b) => a + b, 0)} rows in ${insertS.toFixed(1)} s${analyzeS === null ? '' : ` + VACUUM (ANALYZE) ${analyzeS.toFixed(1)} s`}`);
    if (settings.explain) {
      log(`[${mode}] timing the stats statements (EXPLAIN ANALYZE)...`);
      // Also the document count of get-filtered-stats (TypeOrmDocumentStore.count, REPOSITORY_CLIENT=local).
      const countDocuments = { name: 'count documents', sql: `SELECT count(*) AS n FROM repository.documents WHERE instance_id = $1 AND state <> 'DELETED'`, params: [instance.svc_instance_id] };
      explained = await explainAll(client, await statsStatements(instanceId, generated.range), [countDocuments]);
    }
  } finally {
    await client.end();
    if (embedded) await embedded.stop();
  }
  if (mode === 'embedded') {
    log(`[${mode}] starting the service again on the seeded DATA_DIR...`);
    await service.restart();
  }

  // Every counter through the API, as seeded.
  const range = seeded.range;
  const dailyBody = { instance_id: instanceId, begin_date: range.begin_date, end_date: range.end_date, user_id: '' };
  const filtered = await audit('/audit/stats/get-filtered-stats', { instance_id: instanceId });
  const dashboard = await audit('/audit/dashboard/get-my-dashboard', {});
  const daily = await audit('/audit/stats/get-daily-stats', dailyBody);
  for (const [name, res] of [['get-filtered-stats', filtered], ['get-my-dashboard', dashboard], ['get-daily-stats', daily]]) {
    if (res.status !== 200) throw new Error(`[${mode}] ${name} answered ${res.status}: ${JSON.stringify(res.body)}`);
  }
  const entry = dashboard.body.response.find((e) => e.instance_id === instanceId);
  const days = daily.body.response;
  const summed = Object.fromEntries(Object.keys(seeded.expected.daily).map((k) => [k, days.reduce((a, d) => a + d[k], 0)]));
  const wrong = [...differences('filtered', seeded.expected.filtered, filtered.body.response), ...differences('dashboard', seeded.expected.dashboard, entry), ...differences('daily (summed)', seeded.expected.daily, summed)];
  if (days.length !== settings.days) wrong.push(`daily: ${days.length} rows for ${settings.days} days`);
  if (wrong.length) throw new Error(`[${mode}] the API does not answer what was seeded:\n  ${wrong.join('\n  ')}`);
  log(`[${mode}] checked: total_documents ${filtered.body.response.total_documents}, total_questions ${filtered.body.response.total_questions}, total_conflicts ${filtered.body.response.total_conflicts}, ${days.length} days; every counter as seeded`);

  const targets = [
    { route: 'get-filtered-stats', method: 'POST', url: `${service.urls.audit}/audit/stats/get-filtered-stats`, body: { instance_id: instanceId }, credential: adminKey },
    { route: 'get-my-dashboard', method: 'POST', url: `${service.urls.audit}/audit/dashboard/get-my-dashboard`, body: {}, credential: adminKey },
    ...(settings.daily ? [{ route: `get-daily-stats (${settings.days} days)`, method: 'POST', url: `${service.urls.audit}/audit/stats/get-daily-stats`, body: dailyBody, credential: adminKey }] : []),
    { route: 'GET /health/live', method: 'GET', url: `${service.urls.audit}/health/live` },
  ];
  const label = (target, concurrency) => `[${mode} c=${concurrency}] ${target.route}`.padEnd(44);
  const results = [];
  for (const [i, concurrency] of settings.concurrencies.entries()) {
    // A warm-up round over every route before the first measurements (JIT, caches, pools); 1 s again before each.
    if (i === 0 && settings.warmupS > 0) {
      for (const target of targets) await runLoad(target, { requestTimeoutMs: settings.requestTimeoutMs, concurrency, seconds: settings.warmupS, record: false, label: label(target, concurrency), phase: 'warm-up' });
    }
    for (const target of targets) {
      const rewarm = Math.min(1, settings.warmupS);
      if (rewarm > 0) await runLoad(target, { requestTimeoutMs: settings.requestTimeoutMs, concurrency, seconds: rewarm, record: false, label: label(target, concurrency), phase: 'warm-up' });
      const before = sampleCpu(service);
      const run = await runLoad(target, { requestTimeoutMs: settings.requestTimeoutMs, concurrency, seconds: settings.durationS, record: true, label: label(target, concurrency), phase: 'measure' });
      results.push({ mode, concurrency, route: target.route, path: new URL(target.url).pathname, ...run, cpu: cpuBetween(before, sampleCpu(service)) });
    }
  }
  const memory = serviceMemory(service);
  log(`[${mode}] stopping the service...`);
  let kept = null;
  if (settings.keep) {
    // The seeded database stays for EXPLAIN sessions: PGlite's DATA_DIR, or the PostgreSQL database.
    await service.stop();
    kept = mode === 'embedded' ? { DATA_DIR: service.env.DATA_DIR } : { DATABASE_URL: service.env.DATABASE_URL };
    log(`[${mode}] kept (BENCH_KEEP=1; drop it yourself): ${JSON.stringify(kept)}`);
  } else {
    await service.destroy();
  }
  registerCleanup(undefined);
  return { mode, database: mode === 'embedded' ? 'PGlite' : 'PostgreSQL', instance_id: instanceId, kept, seeded, explain: explained, results, service_memory_mb: memory };
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

const fmt = (v, digits = 2) => (v === null || v === undefined ? '–' : Number(v).toFixed(digits));

function loadTable(rows) {
  const lines = ['| Mode | Conc. | Route | req/s | p50 (ms) | p95 (ms) | p99 (ms) | max (ms) | Errors | Cores: service / generator / PG+Redis / other |', '|---|---:|---|---:|---:|---:|---:|---:|---:|---|'];
  for (const r of rows) {
    const service = Object.values(r.cpu.service_cores).reduce((a, b) => a + (b ?? 0), 0);
    lines.push(`| ${r.mode} | ${r.concurrency} | ${r.route} | ${fmt(r.rps, 0)} | ${fmt(r.latency_ms.p50)} | ${fmt(r.latency_ms.p95)} | ${fmt(r.latency_ms.p99)} | ${fmt(r.latency_ms.max)} | ${r.errors} | ${fmt(service)} / ${fmt(r.cpu.load_generator_cores)} / ${fmt(r.cpu.postgres_redis_cores)} / ${fmt(r.cpu.other_cores)} |`);
  }
  return lines.join('\n');
}

function explainTable(modes) {
  const lines = ['| Mode | Statement | execution p50 (ms) | planning p50 (ms) | client round trip p50 / max (ms) |', '|---|---|---:|---:|---|'];
  for (const m of modes) for (const e of m.explain) lines.push(`| ${m.mode} | ${e.statement} | ${fmt(e.execution_ms_p50)} | ${fmt(e.planning_ms_p50)} | ${fmt(e.round_trip_ms_p50)} / ${fmt(e.round_trip_ms_max)} |`);
  return lines.join('\n');
}

async function main() {
  const startedAt = new Date();
  let current;
  const onSignal = async (signal) => {
    log(`\n${signal}: stopping the service...`);
    try {
      await current?.destroy();
    } finally {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    }
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  log(
    `bench stats: modes=${settings.modes.join(',')} concurrency=${settings.concurrencies.join(',')} duration=${settings.durationS}s warmup=${settings.warmupS}s ` +
      `documents=${settings.documents} questions=${settings.questions} conflicts=${settings.conflicts} days=${settings.days} cpus=${cpus().length}`,
  );
  const idleBefore = sampleCpu(undefined);
  await sleep(1000);
  const busyBefore = cpuBetween(idleBefore, sampleCpu(undefined)).machine_cores_busy;
  if (busyBefore !== null && busyBefore > 0.25) log(`bench: warning: ${busyBefore} of ${cpus().length} cores already busy before the run (load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}); figures will be noisy`);

  const modes = [];
  try {
    for (const mode of settings.modes) modes.push(await benchMode(mode, (service) => (current = service)));
  } catch (error) {
    if (current) {
      log(`service output:\n${current.output().slice(-4000)}`);
      await current.destroy().catch((e) => log(`cleanup failed: ${e}`));
    }
    throw error;
  }

  const rows = modes.flatMap((m) => m.results);
  const report = {
    benchmark: 'stats',
    started_at: startedAt.toISOString(),
    finished_at: new Date().toISOString(),
    git_commit: process.env.BENCH_GIT_COMMIT || gitCommit(),
    settings: { ...settings, load_generator: 'closed loop, node:http keep-alive Agent, same machine (loopback)' },
    goal: `get-filtered-stats and get-my-dashboard p99 <= ${GOAL_P99_MS} ms on PostgreSQL`,
    machine: machineInfo(busyBefore),
    modes,
  };
  const file = writeResults('stats', startedAt, report);

  console.log('');
  console.log(`## stats benchmark (${settings.documents} documents, ${settings.questions} questions, ${settings.conflicts} conflicts, ${settings.days} days; ${settings.durationS} s per route; ${cpus().length} CPUs, node ${process.version})`);
  console.log('');
  console.log(loadTable(rows));
  console.log('');
  if (modes.some((m) => m.explain.length)) {
    console.log(explainTable(modes));
    console.log('');
  }
  for (const m of modes) console.log(`- ${m.mode}: service memory MiB (rss / peak) ${Object.entries(m.service_memory_mb).map(([app, v]) => `${app} ${v.rss} / ${v.peak}`).join(', ')}; seeded ${Object.entries(m.seeded.rows).map(([t, n]) => `${t} ${n}`).join(', ')}`);
  for (const r of rows.filter((x) => x.mode === 'distributed' && (x.route === 'get-filtered-stats' || x.route === 'get-my-dashboard'))) {
    console.log(`- goal (PostgreSQL, p99 <= ${GOAL_P99_MS} ms): ${r.route} at ${r.concurrency} connection(s): p99 ${fmt(r.latency_ms.p99)} ms, ${r.latency_ms.p99 <= GOAL_P99_MS ? 'met' : 'MISSED'}`);
  }
  for (const r of rows.filter((x) => x.errors > 0)) console.log(`- ${r.mode} c=${r.concurrency} / ${r.route}: statuses ${JSON.stringify(r.statuses)}, transport errors ${JSON.stringify(r.transport_error_kinds)}`);
  const noisy = rows.filter((r) => (r.cpu?.other_cores ?? 0) > 0.25);
  if (noisy.length) console.log(`- warning: other processes used CPU during ${noisy.map((r) => `${r.mode} c=${r.concurrency} / ${r.route} (${r.cpu.other_cores} cores)`).join(', ')}; those figures are noisy`);
  console.log(`Results: ${relative(ROOT, file)}`);
  endRunSoon();
}

await main();
