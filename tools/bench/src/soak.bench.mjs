// A soak (issue 28 item 11): the BUILT service in each runtime mode under SOAK_MINUTES of steady mixed load
// (ingestion, searches, question edits, audit reads, a full scan every few minutes); every answer outside 2xx, the
// latency of each kind of operation, and the resident memory of every app process, which must stay flat once warm.
//
//   npm run bench:soak
//   SOAK_MINUTES=2 SOAK_MODES=embedded node tools/bench/src/soak.bench.mjs
//
// For each mode (embedded = standalone process on PGlite; distributed = four app processes on PostgreSQL
// 127.0.0.1:5432 + Redis 127.0.0.1:6379), on a fresh database, started as tools/test-kit's startService does:
//   1. an admin key (BOOTSTRAP_ADMIN_API_KEY), one audit instance; SOAK_SEED_DOCUMENTS of a pool of SOAK_DOCUMENTS
//      generated Markdown documents upserted through `/api/documents/upsert`, until all are indexed and the first full
//      scan has completed (not measured);
//   2. SOAK_MINUTES of load from closed-loop workers, each pausing between its operations (a steady, moderate rate,
//      not saturation):
//      - ingestion: upserts through the instance API (new documents of the pool, new versions of live ones, half of
//        them of the SOAK_HOT_DOCUMENTS updated again and again) and deletes (SOAK_DELETE_SHARE; a deleted document
//        comes back later as an upsert). One document in five states a figure for one of the planted reviews, which
//        changes between versions;
//      - searches: `/retrieval/semantic-nodes/search` (admin key) and `/api/search/query` (the instance API's search
//        answers, five users), alternately; queries of the corpus' subjects or the planted questions;
//      - question edits through the audit API: create (up to SOAK_OPEN_QUESTIONS open at once, three of four about a
//        planted review, one unanswerable), set-answer, force-analyze of a REFUSED one, close the oldest
//        (set-managed or set-ignored) to make room for the next;
//      - audit reads, in turn: get-instance, the instance list, the lists (questions, conflicts, documents, findings,
//        duplicates, missing subjects), a conflict's and a finding's detail, document count, dashboard, filtered and
//        daily stats, have-to-show;
//      - a full scan every SOAK_SCAN_EVERY_S (the first after half of it): `/audit/instance/update-instance-step` to
//        INIT (the steps walked again, as the scan-load bench does), followed through have-to-show until the scan
//        started by RUNNING_PHASE completes (measured end to end);
//   3. the resident memory (VmRSS) of every app process every SOAK_SAMPLE_S, a progress line every SOAK_PROGRESS_S.
// Errors: every answer outside 2xx and every request without an answer, with its route and body; the only 4xx not
// counted as an error is force-analyze's 409 when the question left REFUSED between the list and the call (a document
// change re-analyses every question: a race of the load, listed apart). Memory flat: after SOAK_WARMUP_S, the median
// of the last minute within SOAK_FLAT_WITHIN of the median of the first minute after the warm-up, and the growth the
// linear regression of the total RSS over that time projects within the same bound.
// Prints Markdown tables, writes JSON to tools/bench/results/soak-<timestamp>.json and each mode's service log beside
// it (with its lines by level and its errors in the JSON); exits 1 on any error or memory not flat.
import { Buffer } from 'node:buffer';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { clearInterval, setInterval, setTimeout } from 'node:timers';
import { setTimeout as sleep } from 'node:timers/promises';
import { URL } from 'node:url';
import { envNumber, gitCommit, latencySummary, machineInfo, percentile, progressBar, requireBuilt, RESULTS_DIR, ROOT, round, startBenchService, stopOnSignal, writeResults } from './bench-kit.mjs';
import { Corpus, mulberry32 } from './corpus.mjs';
import { cpuBetween, sampleCpu, send, serviceRss, totalMb } from './load-kit.mjs';

const envInteger = (name, fallback, options = {}) => envNumber(name, fallback, { integer: true, ...options });

const minutes = envNumber('SOAK_MINUTES', 10, { min: 0.5, max: 24 * 60 });
const settings = {
  modes: (process.env.SOAK_MODES ?? 'embedded,distributed').split(',').map((m) => m.trim()).filter(Boolean),
  minutes,
  /** Memory before this is not judged (caches filling, the JIT, the pools reaching their size). */
  warmupS: envNumber('SOAK_WARMUP_S', Math.min(120, (minutes * 60) / 3), { min: 0, max: minutes * 60 * 0.8 }),
  /** The pool of documents the ingestion rotates over, and how many are upserted before the soak. */
  documents: envInteger('SOAK_DOCUMENTS', 300, { min: 20, max: 100000 }),
  seedDocuments: envInteger('SOAK_SEED_DOCUMENTS', 200, { min: 10, max: 100000 }),
  /** Documents of the pool updated again and again (half of the upserts). */
  hotDocuments: envInteger('SOAK_HOT_DOCUMENTS', 20, { min: 1 }),
  /** Share of the ingestion's operations that delete a live document. */
  deleteShare: envNumber('SOAK_DELETE_SHARE', 0.1, { min: 0, max: 0.5 }),
  /** Closed-loop workers of each kind, and the pause (ms, ±50 % at random) each takes after an operation. */
  ingestWorkers: envInteger('SOAK_INGEST_WORKERS', 2, { min: 0, max: 32 }),
  ingestPauseMs: envInteger('SOAK_INGEST_PAUSE_MS', 1000, { min: 0 }),
  searchWorkers: envInteger('SOAK_SEARCH_WORKERS', 1, { min: 0, max: 32 }),
  searchPauseMs: envInteger('SOAK_SEARCH_PAUSE_MS', 500, { min: 0 }),
  questionWorkers: envInteger('SOAK_QUESTION_WORKERS', 1, { min: 0, max: 1 }),
  questionPauseMs: envInteger('SOAK_QUESTION_PAUSE_MS', 2000, { min: 0 }),
  readWorkers: envInteger('SOAK_READ_WORKERS', 2, { min: 0, max: 32 }),
  readPauseMs: envInteger('SOAK_READ_PAUSE_MS', 250, { min: 0 }),
  /** Open mandatory questions kept by the question worker (it closes the oldest to create the next). */
  openQuestions: envInteger('SOAK_OPEN_QUESTIONS', 20, { min: 2, max: 1000 }),
  /** A full scan every this many seconds (0: none), the first after half of it; given up after SOAK_SCAN_TIMEOUT_S. */
  scanEveryS: envNumber('SOAK_SCAN_EVERY_S', 180, { min: 0 }),
  scanTimeoutS: envNumber('SOAK_SCAN_TIMEOUT_S', 600, { min: 10 }),
  sampleS: envNumber('SOAK_SAMPLE_S', 5, { min: 0.25, max: 60 }),
  progressS: envNumber('SOAK_PROGRESS_S', 30, { min: 1 }),
  /** Goal: the last minute's median RSS, and the regression's projected growth, within this share of the first minute after the warm-up. */
  flatWithin: envNumber('SOAK_FLAT_WITHIN', 0.1, { min: 0, max: 10 }),
  /** A request slower than this is abandoned and counted as an error. */
  requestTimeoutMs: envInteger('SOAK_REQUEST_TIMEOUT_MS', 30000, { min: 100 }),
  /** Give up seeding (indexation, first full scan) after this many seconds. */
  setupTimeoutS: envInteger('SOAK_SETUP_TIMEOUT_S', 900, { min: 10 }),
  seed: envInteger('SOAK_SEED', 28),
  /** More environment for the service (JSON object), e.g. '{"FULL_AUDIT_SETTLE_SECONDS":"0"}' to try a setting. */
  serviceEnv: JSON.parse(process.env.SOAK_SERVICE_ENV || '{}'),
};
for (const mode of settings.modes) {
  if (mode !== 'embedded' && mode !== 'distributed') throw new Error(`SOAK_MODES: unknown mode "${mode}" (embedded, distributed)`);
}
if (settings.seedDocuments > settings.documents) throw new Error('SOAK_SEED_DOCUMENTS must not exceed SOAK_DOCUMENTS');
if (settings.hotDocuments > settings.documents) throw new Error('SOAK_HOT_DOCUMENTS must not exceed SOAK_DOCUMENTS');

requireBuilt('run `npm run build` first (or use `npm run bench:soak`, which builds)');

/** Every operation kind, in the order of the tables, with its family. */
const KINDS = [
  ['ingestion', 'upsert'],
  ['ingestion', 'delete'],
  ['search', 'semantic-nodes/search'],
  ['search', 'search/query (answer)'],
  ['questions', 'create'],
  ['questions', 'set-answer'],
  ['questions', 'list REFUSED'],
  ['questions', 'force-analyze'],
  ['questions', 'set-managed / set-ignored'],
  ['audit reads', 'get-instance'],
  ['audit reads', 'list-instances-for-user'],
  ['audit reads', 'mandatory-question/list'],
  ['audit reads', 'conflict/list'],
  ['audit reads', 'conflict/get'],
  ['audit reads', 'document/list'],
  ['audit reads', 'document/count'],
  ['audit reads', 'full-audit/list'],
  ['audit reads', 'full-audit/detail'],
  ['audit reads', 'duplicate/list'],
  ['audit reads', 'missing-subject/list'],
  ['audit reads', 'dashboard'],
  ['audit reads', 'get-filtered-stats'],
  ['audit reads', 'get-daily-stats'],
  ['audit reads', 'have-to-show'],
  ['full scan', 'update-instance-step INIT'],
  ['full scan', 'have-to-show (scan poll)'],
  ['full scan', 'full scan, INIT to COMPLETED'],
];
const FAMILY = new Map(KINDS.map(([family, kind]) => [kind, family]));

// ---------------------------------------------------------------------------------------------
// The documents and questions: generated Markdown, some stating how long a planted review takes
// ---------------------------------------------------------------------------------------------

/** Reviews some documents state a duration for, and questions asking it. */
const SUBJECTS = 30;
/** One document of the pool in this many states a review's duration. */
const PLANTED_EVERY = 5;
const FIGURES = [14, 21, 30];

function soakCorpus() {
  const corpus = new Corpus(settings.seed, 'topical');
  const random = mulberry32(settings.seed + 7);
  const subjects = Array.from({ length: SUBJECTS }, (_, k) => {
    corpus.startDocument();
    return `${corpus.topics[corpus.topic][k % 20]} ${corpus.vocabulary[500 + k]}`;
  });
  /** Version `n` of the pool's document `index`: a new body each time, a planted review's figure drawn again. */
  const document = (index) => {
    const { title, content } = corpus.markdown();
    let text = content.trimEnd();
    if (index % PLANTED_EVERY === 0) {
      const subject = subjects[(index / PLANTED_EVERY) % SUBJECTS];
      const figure = FIGURES[Math.floor(random() * FIGURES.length)];
      text += `\n\n## ${subject[0].toUpperCase()}${subject.slice(1)} review\n\n${corpus.paragraph(30).text} The ${subject} review is completed within ${figure} days. ${corpus.paragraph(30).text}`;
    }
    return { name: `${title} ${index}.md`, content_text: `${text}\n` };
  };
  let asked = 0;
  /** Three of four about a planted review, one nobody answers. */
  const question = () => {
    asked++;
    if (asked % 4 === 0) return `Which colour is the ${corpus.vocabulary[1000 + (asked % 500)]} badge of the ${corpus.vocabulary[2000 + (asked % 500)]} team?`;
    return `Within how many days is the ${subjects[asked % SUBJECTS]} review completed?`;
  };
  const query = () => (random() < 0.3 ? `How long does the ${subjects[Math.floor(random() * SUBJECTS)]} review take?` : corpus.query());
  return { random, document, question, query };
}

// ---------------------------------------------------------------------------------------------
// Requests and what they answered
// ---------------------------------------------------------------------------------------------

/** Per operation kind: latencies, statuses, errors; every failure with its route, status and body. */
function recorder(t0) {
  const kinds = new Map();
  const failures = [];
  const expected = [];
  const totals = { ops: 0, errors: 0 };
  const entry = (kind) => {
    if (!kinds.has(kind)) kinds.set(kind, { latencies: [], count: 0, errors: 0, expected: 0, statuses: {} });
    return kinds.get(kind);
  };
  const at = () => round((performance.now() - t0) / 1000, 1);
  return {
    totals,
    /** An HTTP answer; `isExpected(status, body)` says whether a non-2xx is a race of the load rather than an error. */
    answer(kind, route, ms, status, body, isExpected) {
      const e = entry(kind);
      e.count++;
      totals.ops++;
      e.latencies.push(ms);
      e.statuses[status] = (e.statuses[status] ?? 0) + 1;
      if (status >= 200 && status < 300) return;
      const record = { at_s: at(), kind, route, status, body: JSON.stringify(body ?? null).slice(0, 2000) };
      if (isExpected?.(status, body)) {
        e.expected++;
        expected.push(record);
        return;
      }
      e.errors++;
      totals.errors++;
      failures.push(record);
      process.stderr.write(`  ! ${record.at_s}s ${kind} ${route} answered ${status}: ${record.body.slice(0, 300)}\n`);
    },
    /** A request without an answer (connection error, timeout). */
    transport(kind, route, ms, error) {
      const e = entry(kind);
      e.count++;
      e.errors++;
      totals.ops++;
      totals.errors++;
      const record = { at_s: at(), kind, route, status: null, error: error?.code ?? error?.message ?? String(error), ms: round(ms, 0) };
      failures.push(record);
      process.stderr.write(`  ! ${record.at_s}s ${kind} ${route}: no answer (${record.error})\n`);
    },
    /** An operation that is not one request (the full scan, end to end); `failure` says why it failed. */
    done(kind, ms, failure = null, detail = {}) {
      const e = entry(kind);
      e.count++;
      totals.ops++;
      if (!failure) {
        e.latencies.push(ms);
        return;
      }
      e.errors++;
      totals.errors++;
      const record = { at_s: at(), kind, route: null, status: null, error: failure, ...detail };
      failures.push(record);
      process.stderr.write(`  ! ${record.at_s}s ${kind}: ${failure}\n`);
    },
    summary() {
      const order = [...KINDS.map(([, kind]) => kind), ...[...kinds.keys()].filter((k) => !FAMILY.has(k))];
      return order
        .filter((kind) => kinds.has(kind))
        .map((kind) => {
          const e = kinds.get(kind);
          return { family: FAMILY.get(kind) ?? 'other', kind, count: e.count, errors: e.errors, expected_4xx: e.expected, statuses: e.statuses, latency_ms: latencySummary(e.latencies) };
        });
    },
    failures,
    expected,
  };
}

/** POST with the admin key (audit app, admin search) or the instance API's headers; records the answer under `kind`. */
function apiClient(service, rec, { adminKey, instanceId, instanceKey }) {
  // A timeout lets the agent drop an idle socket before the server closes it (else an ECONNRESET of the client's making).
  const agents = { audit: new Agent({ keepAlive: true, maxSockets: 64, timeout: settings.requestTimeoutMs }), retrieval: new Agent({ keepAlive: true, maxSockets: 64, timeout: settings.requestTimeoutMs }) };
  const instanceHeaders = { 'instance-id': instanceId, 'api-key': instanceKey };
  const api = async (kind, app, path, body, { instanceApi = false, isExpected = null } = {}) => {
    const url = new URL(`${service.urls[app]}${path}`);
    const t = performance.now();
    try {
      const res = await send(agents[app], url, 'POST', Buffer.from(JSON.stringify(body)), instanceApi ? null : adminKey, settings.requestTimeoutMs, true, instanceApi ? instanceHeaders : {});
      const ms = performance.now() - t;
      let parsed;
      try {
        parsed = res.body.length ? JSON.parse(res.body.toString('utf8')) : undefined;
      } catch {
        parsed = res.body.toString('utf8');
      }
      rec.answer(kind, path, ms, res.status, parsed, isExpected);
      return { status: res.status, body: parsed };
    } catch (error) {
      rec.transport(kind, path, performance.now() - t, error);
      return { status: 0, body: undefined };
    }
  };
  api.close = () => Object.values(agents).forEach((a) => a.destroy());
  return api;
}

const ok = (res) => res.status >= 200 && res.status < 300;

// ---------------------------------------------------------------------------------------------
// The workers: closed loops, each pausing between its operations
// ---------------------------------------------------------------------------------------------

function workers({ api, instanceId, corpus, docs, stopped, elapsedS, durationS }) {
  const { random } = corpus;
  const pause = (ms) => (ms > 0 ? sleep(ms * (0.5 + random())) : Promise.resolve());
  const pick = (list) => list[Math.floor(random() * list.length)];
  const loop = (pauseMs, step) => async () => {
    while (!stopped()) {
      await step();
      await pause(pauseMs);
    }
  };

  // Ingestion: one operation at a time per document (`busy`), so a delete never races its own upsert.
  const upsert = async (doc) => {
    doc.busy = true;
    const res = await api('upsert', 'retrieval', '/api/documents/upsert', { external_id: doc.externalId, url: `https://intranet.example/soak/${doc.index}`, ...corpus.document(doc.index) }, { instanceApi: true });
    if (ok(res)) Object.assign(doc, { id: res.body.response.id, live: true, versions: doc.versions + 1 });
    doc.busy = false;
  };
  const remove = async (doc) => {
    doc.busy = true;
    const res = await api('delete', 'retrieval', '/api/documents/delete', { document_id: doc.id }, { instanceApi: true });
    if (ok(res)) doc.live = false;
    doc.busy = false;
  };
  const ingest = loop(settings.ingestPauseMs, async () => {
    const free = docs.filter((d) => !d.busy);
    const deletable = free.filter((d) => d.live && d.index >= settings.hotDocuments);
    if (random() < settings.deleteShare && deletable.length > settings.documents / 2) return remove(pick(deletable));
    const hot = free.filter((d) => d.index < settings.hotDocuments);
    const doc = random() < 0.5 && hot.length ? pick(hot) : pick(free);
    if (doc) await upsert(doc);
  });

  let searches = 0;
  const search = loop(settings.searchPauseMs, async () => {
    const query = corpus.query();
    if (searches++ % 2 === 0) await api('semantic-nodes/search', 'retrieval', '/retrieval/semantic-nodes/search', { query, instance_id: instanceId });
    else await api('search/query (answer)', 'retrieval', '/api/search/query', { query, user: `user-${searches % 5}` }, { instanceApi: true });
  });

  // Question edits: the worker's open questions, oldest first.
  const open = [];
  let closes = 0;
  const raceOfTheLoad = (status, body) => status === 409 && body?.code === 'MANDATORY_QUESTION.INVALID_TRANSITION';
  const setAnswer = async () => {
    const q = pick(open);
    await api('set-answer', 'audit', '/audit/mandatory-question/set-answer', { instance_id: instanceId, question_id: q.id, answer: `${pick(FIGURES)} days` });
  };
  const questions = loop(settings.questionPauseMs, async () => {
    if (open.length < settings.openQuestions) {
      const res = await api('create', 'audit', '/audit/mandatory-question/create', { instance_id: instanceId, question: corpus.question() });
      if (ok(res)) open.push({ id: res.body.response.id });
      return;
    }
    const r = random();
    if (r < 0.4) return setAnswer();
    if (r < 0.7) {
      const refused = await api('list REFUSED', 'audit', '/audit/mandatory-question/list', { instance_id: instanceId, state: 'REFUSED', limit: 100 });
      const ours = new Set(open.map((q) => q.id));
      const candidates = ok(refused) ? refused.body.response.items.filter((q) => ours.has(q.id)) : [];
      if (!candidates.length) return setAnswer();
      // The question may have left REFUSED since the list (a document change re-analyses every question): 409, a race of the load.
      await api('force-analyze', 'audit', '/audit/mandatory-question/force-analyze', { instance_id: instanceId, question_id: pick(candidates).id }, { isExpected: raceOfTheLoad });
      return;
    }
    const oldest = open.shift();
    await api('set-managed / set-ignored', 'audit', closes++ % 2 === 0 ? '/audit/mandatory-question/set-managed' : '/audit/mandatory-question/set-ignored', { instance_id: instanceId, question_id: oldest.id });
  });

  // Audit reads, in turn across the read workers; the detail reads take an id from the last list.
  const seen = { conflicts: [], findings: [] };
  const day = (offsetDays) => new Date(Date.now() - offsetDays * 86400000).toISOString().slice(0, 10);
  const READS = [
    ['get-instance', '/audit/instance/get-instance', () => ({ instance_id: instanceId })],
    ['list-instances-for-user', '/audit/instance/list-instances-for-user', () => ({})],
    ['mandatory-question/list', '/audit/mandatory-question/list', () => ({ instance_id: instanceId, limit: 50 })],
    ['conflict/list', '/audit/conflict/list-conflicts-for-instance', () => ({ instance_id: instanceId, state_in: [], limit: 50 }), (r) => (seen.conflicts = r.items.map((c) => c.id))],
    ['conflict/get', '/audit/conflict/get', () => (seen.conflicts.length ? { instance_id: instanceId, conflict_id: pick(seen.conflicts) } : null)],
    ['document/list', '/audit/document/list', () => ({ instance_id: instanceId, limit: 50 })],
    ['document/count', '/audit/document/count', () => ({ instance_id: instanceId })],
    ['full-audit/list', '/audit/full-audit/list', () => ({ instance_id: instanceId, state_in: [], limit: 50 }), (r) => (seen.findings = r.items.map((c) => c.id))],
    ['full-audit/detail', '/audit/full-audit/detail', () => (seen.findings.length ? { instance_id: instanceId, conflict_id: pick(seen.findings) } : null)],
    ['duplicate/list', '/audit/duplicate/list-duplicates-for-instance', () => ({ instance_id: instanceId, limit: 50 })],
    ['missing-subject/list', '/audit/missing-subject/list', () => ({ instance_id: instanceId, limit: 50 })],
    ['dashboard', '/audit/dashboard/get-my-dashboard', () => ({})],
    ['get-filtered-stats', '/audit/stats/get-filtered-stats', () => ({ instance_id: instanceId })],
    ['get-daily-stats', '/audit/stats/get-daily-stats', () => ({ instance_id: instanceId, begin_date: day(6), end_date: day(0), user_id: '' })],
    ['have-to-show', '/audit/full-audit/have-to-show', () => ({ instance_id: instanceId })],
  ];
  let nextRead = 0;
  const read = loop(settings.readPauseMs, async () => {
    const [kind, path, body, then] = READS[nextRead++ % READS.length];
    const payload = body();
    if (!payload) return;
    const res = await api(kind, 'audit', path, payload);
    if (ok(res) && then) then(res.body.response);
  });

  // The full scan: the steps walked again from INIT, followed until the scan RUNNING_PHASE starts completes.
  const scans = [];
  const scan = async (rec) => {
    if (!settings.scanEveryS) return;
    let slot = settings.scanEveryS / 2;
    const panel = async () => (await api('have-to-show (scan poll)', 'audit', '/audit/full-audit/have-to-show', { instance_id: instanceId })).body?.response;
    while (!stopped()) {
      if (elapsedS() < slot) {
        await sleep(Math.min(1000, (slot - elapsedS()) * 1000));
        continue;
      }
      // Not in the last half-period: it would still be running when the load stops.
      if (durationS - elapsedS() < settings.scanEveryS / 2) break;
      const before = (await panel())?.scan ?? null;
      const requested = Date.now();
      const t = performance.now();
      const started = await api('update-instance-step INIT', 'audit', '/audit/instance/update-instance-step', { instance_id: instanceId, step: 'INIT' });
      slot += settings.scanEveryS;
      if (!ok(started)) continue;
      const facts = { requested_at_s: round(elapsedS(), 1), walk_s: null, scan_s: null, documents: null, findings: null, outcome: null };
      let mine = null;
      let last = null;
      for (;;) {
        if (stopped()) {
          facts.outcome = 'still running when the load stopped';
          break;
        }
        if ((performance.now() - t) / 1000 > settings.scanTimeoutS) {
          const step = (await api('get-instance', 'audit', '/audit/instance/get-instance', { instance_id: instanceId })).body?.response?.step;
          facts.outcome = 'timeout';
          rec.done('full scan, INIT to COMPLETED', performance.now() - t, `not completed ${settings.scanTimeoutS} s after update-instance-step INIT (step ${step}, last scan seen ${JSON.stringify(last)})`, { scan: facts });
          break;
        }
        await sleep(1000);
        const p = await panel();
        last = p?.scan ?? null;
        const current = last && last.reason !== 'settle' && last.started_at !== before?.started_at && Date.parse(last.started_at) >= requested - 2000 ? last : null;
        if (!current) continue;
        if (!mine) {
          mine = current;
          facts.walk_s = round((Date.parse(current.started_at) - requested) / 1000, 1);
        }
        if (current.started_at !== mine.started_at) {
          facts.outcome = 'superseded by another scan before it was seen complete';
          break;
        }
        if (current.state === 'COMPLETED') {
          Object.assign(facts, { scan_s: round((Date.parse(current.finished_at) - Date.parse(current.started_at)) / 1000, 1), documents: current.documents, findings: current.findings, outcome: 'completed' });
          rec.done('full scan, INIT to COMPLETED', performance.now() - t);
          break;
        }
        if (current.state === 'ABANDONED') {
          facts.outcome = 'abandoned';
          rec.done('full scan, INIT to COMPLETED', performance.now() - t, `the scan started ${current.started_at} was ABANDONED`, { scan: current });
          break;
        }
      }
      scans.push(facts);
      process.stderr.write(`  full scan at ${facts.requested_at_s}s: ${facts.outcome}${facts.outcome === 'completed' ? ` (steps ${facts.walk_s} s, scan ${facts.scan_s} s, ${facts.documents} documents, ${facts.findings} findings)` : ''}\n`);
    }
  };

  const count = (n, run) => Array.from({ length: n }, () => run);
  return {
    scans,
    start: (rec) => [...count(settings.ingestWorkers, ingest), ...count(settings.searchWorkers, search), ...count(settings.questionWorkers, questions), ...count(settings.readWorkers, read)].map((run) => run()).concat(scan(rec)),
    openQuestions: open,
  };
}

// ---------------------------------------------------------------------------------------------
// Memory: flat once warm?
// ---------------------------------------------------------------------------------------------

/** Least-squares slope of y over x. */
function slope(points) {
  const n = points.length;
  if (n < 2) return null;
  const mx = points.reduce((a, [x]) => a + x, 0) / n;
  const my = points.reduce((a, [, y]) => a + y, 0) / n;
  const sxx = points.reduce((a, [x]) => a + (x - mx) ** 2, 0);
  return sxx ? points.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0) / sxx : null;
}

const median = (values) => percentile([...values].sort((a, b) => a - b), 50);

/** The memory verdict of one mode: start, first minute after the warm-up, last minute, peak, slope (MiB/min) of the total and of each app. */
function memoryVerdict(samples, durationS) {
  const after = samples.filter((s) => s.at_s >= settings.warmupS);
  const windowS = Math.min(60, (durationS - settings.warmupS) / 3);
  const firstWindow = after.filter((s) => s.at_s < settings.warmupS + windowS);
  const lastWindow = samples.filter((s) => s.at_s >= durationS - windowS);
  const apps = Object.keys(samples[0]?.by_app ?? {});
  const per = (pickMb) => {
    const first = median(firstWindow.map(pickMb));
    const last = median(lastWindow.map(pickMb));
    const perMinute = slope(after.map((s) => [s.at_s / 60, pickMb(s)]));
    const projected = perMinute === null ? null : perMinute * ((durationS - settings.warmupS) / 60);
    const minutes = Array.from({ length: Math.ceil(durationS / 60) }, (_, k) => median(samples.filter((x) => x.at_s >= k * 60 && x.at_s < (k + 1) * 60).map(pickMb)));
    return { start_mb: pickMb(samples[0]), by_minute_median_mb: minutes, after_warmup_mb: first, end_mb: last, peak_mb: Math.max(...samples.map(pickMb)), slope_mb_per_min: round(perMinute, 2), projected_growth_mb: round(projected, 0), end_vs_after_warmup: first ? round(last / first - 1, 4) : null };
  };
  const total = per((s) => s.total_mb);
  const flat = total.after_warmup_mb !== null && total.end_mb <= total.after_warmup_mb * (1 + settings.flatWithin) && (total.projected_growth_mb ?? 0) <= total.after_warmup_mb * settings.flatWithin;
  return { window_s: round(windowS, 0), warmup_s: settings.warmupS, ...total, flat, by_app: Object.fromEntries(apps.map((app) => [app, per((s) => s.by_app[app] ?? 0)])) };
}

// ---------------------------------------------------------------------------------------------
// One mode
// ---------------------------------------------------------------------------------------------

const clock = (s) => `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, '0')}`;

async function soakMode(mode, registerCleanup, stamp) {
  const { service, adminKey, audit, expectOk, instanceId, instanceKey } = await startBenchService(mode, settings.serviceEnv, 'Soak', registerCleanup);

  // Seeding (not measured): the first SOAK_SEED_DOCUMENTS of the pool, indexed, and the first full scan completed.
  const corpus = soakCorpus();
  const docs = Array.from({ length: settings.documents }, (_, index) => ({ index, externalId: `soak/${String(index).padStart(5, '0')}.md`, id: null, live: false, busy: false, versions: 0 }));
  const setupT0 = performance.now();
  const setupRec = recorder(setupT0);
  const setupApi = apiClient(service, setupRec, { adminKey, instanceId, instanceKey });
  const bar = progressBar(`[${mode}] seed`, settings.seedDocuments);
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < settings.seedDocuments) {
        const doc = docs[next++];
        const res = await setupApi('seed upsert', 'retrieval', '/api/documents/upsert', { external_id: doc.externalId, url: `https://intranet.example/soak/${doc.index}`, ...corpus.document(doc.index) }, { instanceApi: true });
        if (!ok(res)) throw new Error(`[${mode}] seed upsert ${doc.externalId} answered ${res.status}: ${JSON.stringify(res.body)}`);
        Object.assign(doc, { id: res.body.response.id, live: true, versions: 1 });
        bar.tick();
      }
    }),
  );
  bar.end();
  setupApi.close();
  const indexed = progressBar(`[${mode}] indexed`, settings.seedDocuments);
  let shown = 0;
  for (;;) {
    const count = expectOk(await audit('/audit/document/count', { instance_id: instanceId, state: 'INDEXED' }), 'document count');
    indexed.tick(count - shown);
    shown = count;
    if (count >= settings.seedDocuments) break;
    if ((performance.now() - setupT0) / 1000 > settings.setupTimeoutS) throw new Error(`[${mode}] only ${count} of ${settings.seedDocuments} documents indexed after ${settings.setupTimeoutS} s`);
    await sleep(500);
  }
  indexed.end();
  for (;;) {
    const p = expectOk(await audit('/audit/full-audit/have-to-show', { instance_id: instanceId }), 'have-to-show');
    if (p.show && p.scan?.state === 'COMPLETED') break;
    if ((performance.now() - setupT0) / 1000 > settings.setupTimeoutS) throw new Error(`[${mode}] the first full scan not completed after ${settings.setupTimeoutS} s: ${JSON.stringify(p)}`);
    await sleep(500);
  }
  const setupS = round((performance.now() - setupT0) / 1000, 1);
  process.stderr.write(`[${mode}] seeded in ${setupS} s: ${settings.seedDocuments} documents indexed, first full scan completed; ${totalMb(serviceRss(service))} MiB resident\n`);

  // The soak.
  const durationS = settings.minutes * 60;
  const t0 = performance.now();
  const elapsedS = () => (performance.now() - t0) / 1000;
  const rec = recorder(t0);
  const api = apiClient(service, rec, { adminKey, instanceId, instanceKey });
  let stop = false;
  const samples = [];
  const sample = () => {
    const byApp = serviceRss(service);
    samples.push({ at_s: round(elapsedS(), 1), total_mb: totalMb(byApp), by_app: byApp });
  };
  sample();
  const sampler = setInterval(sample, settings.sampleS * 1000);
  const cpuStart = sampleCpu(service);
  let cpuLast = cpuStart;
  const progress = setInterval(() => {
    const now = sampleCpu(service);
    const cores = Object.values(cpuBetween(cpuLast, now).service_cores).reduce((a, b) => a + (b ?? 0), 0);
    cpuLast = now;
    const s = elapsedS();
    const last = samples.at(-1);
    process.stderr.write(
      `[${mode}] ${clock(s)} / ${clock(durationS)}  ${rec.totals.ops} ops (${(rec.totals.ops / s).toFixed(1)}/s)  ${rec.totals.errors} errors  RSS ${last.total_mb} MiB ${JSON.stringify(last.by_app)}  service ${cores.toFixed(2)} cores\n`,
    );
  }, settings.progressS * 1000);
  const load = workers({ api, instanceId, corpus, docs, stopped: () => stop, elapsedS, durationS });
  process.stderr.write(`[${mode}] soak: ${clock(durationS)} of mixed load, warm-up ${settings.warmupS} s\n`);
  const running = load.start(rec);
  await sleep(durationS * 1000);
  stop = true;
  await Promise.all(running);
  const elapsed = elapsedS();
  clearInterval(sampler);
  clearInterval(progress);
  sample();
  const cpu = cpuBetween(cpuStart, sampleCpu(service));
  api.close();
  const memory = memoryVerdict(samples, durationS);
  const ops = rec.summary();
  const live = docs.filter((d) => d.live).length;
  const finalCount = expectOk(await audit('/audit/document/count', { instance_id: instanceId }), 'document count');
  process.stderr.write(`[${mode}] done: ${rec.totals.ops} ops, ${rec.totals.errors} errors, RSS ${memory.start_mb} -> ${memory.after_warmup_mb} (after warm-up) -> ${memory.end_mb} MiB (last minute), slope ${memory.slope_mb_per_min} MiB/min: ${memory.flat ? 'flat' : 'NOT flat'}\n`);

  const logFile = join(RESULTS_DIR, `soak-${stamp}-${mode}.log`);
  process.stderr.write(`[${mode}] stopping the service...\n`);
  await service.destroy();
  registerCleanup(undefined);
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(logFile, service.output());
  const logLines = service.output().split('\n').filter(Boolean);
  // The service logs at warn: its lines by level (pino: 40 warn, 50 error, 60 fatal), and its errors' distinct messages.
  const levels = {};
  const logErrors = {};
  for (const line of logLines) {
    const json = line.slice(line.indexOf('{'));
    let entry = null;
    try {
      entry = JSON.parse(json);
    } catch {
      // not a log line (a stack trace's continuation)
    }
    const level = entry?.level ?? 'other';
    levels[level] = (levels[level] ?? 0) + 1;
    if (typeof level === 'number' && level >= 50) {
      const key = `${line.slice(0, line.indexOf(' '))} ${entry.context ?? ''}: ${entry.msg ?? ''}`.slice(0, 300);
      logErrors[key] = (logErrors[key] ?? 0) + 1;
    }
  }
  return {
    mode,
    instance_id: instanceId,
    setup_s: setupS,
    duration_s: round(elapsed, 1),
    ops: rec.totals.ops,
    ops_per_s: round(rec.totals.ops / elapsed, 1),
    errors: rec.totals.errors,
    by_kind: ops,
    failures: rec.failures,
    expected_4xx: rec.expected,
    scans: load.scans,
    documents: { pool: settings.documents, live_at_end: live, counted_by_the_service: finalCount, upserted_versions: docs.reduce((a, d) => a + d.versions, 0) },
    memory,
    rss_samples: samples,
    cpu,
    service_log: { file: relative(ROOT, logFile), lines: logLines.length, by_level: levels, errors: logErrors, exit_codes: service.exitCodes() },
  };
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

function opsTable(modes) {
  const f = (v, d = 1) => (v === null || v === undefined ? '–' : Number(v).toFixed(d));
  const lines = ['| Mode | Family | Operation | Count | Errors | p50 (ms) | p99 (ms) | max (ms) |', '|---|---|---|---:|---:|---:|---:|---:|'];
  for (const m of modes) {
    for (const k of m.by_kind) {
      const l = k.latency_ms;
      lines.push(`| ${m.mode} | ${k.family} | ${k.kind} | ${k.count} | ${k.errors ? `**${k.errors}**` : 0}${k.expected_4xx ? ` (+${k.expected_4xx} raced 409)` : ''} | ${f(l.p50)} | ${f(l.p99)} | ${f(l.max, 0)} |`);
    }
  }
  return lines.join('\n');
}

function memoryTable(modes) {
  const lines = [
    '| Mode | Process | RSS start (MiB) | after warm-up (median) | end (last-minute median) | peak | slope (MiB/min) | end vs after warm-up | flat |',
    '|---|---|---:|---:|---:|---:|---:|---:|---|',
  ];
  const row = (mode, name, m, flat) => `| ${mode} | ${name} | ${m.start_mb} | ${m.after_warmup_mb} | ${m.end_mb} | ${m.peak_mb} | ${m.slope_mb_per_min} | ${m.end_vs_after_warmup === null ? '–' : `${(m.end_vs_after_warmup * 100).toFixed(1)} %`} | ${flat} |`;
  for (const m of modes) {
    lines.push(row(m.mode, 'total', m.memory, m.memory.flat ? 'yes' : '**no**'));
    const apps = Object.entries(m.memory.by_app);
    if (apps.length > 1) for (const [app, a] of apps) lines.push(row(m.mode, app, a, ''));
  }
  lines.push('', '| Mode | Process | RSS median of each minute (MiB) |', '|---|---|---|');
  for (const m of modes) {
    lines.push(`| ${m.mode} | total | ${m.memory.by_minute_median_mb.join(', ')} |`);
    const apps = Object.entries(m.memory.by_app);
    if (apps.length > 1) for (const [app, a] of apps) lines.push(`| ${m.mode} | ${app} | ${a.by_minute_median_mb.join(', ')} |`);
  }
  return lines.join('\n');
}

async function main() {
  const startedAt = new Date();
  const stamp = startedAt.toISOString().replace(/\.\d+Z$/, 'Z').replace(/:/g, '-');
  let current;
  stopOnSignal(() => current);
  const idleBefore = sampleCpu(undefined);
  await sleep(1000);
  const busyBefore = cpuBetween(idleBefore, sampleCpu(undefined)).machine_cores_busy;
  process.stderr.write(
    `soak: modes=${settings.modes.join(',')} minutes=${settings.minutes} warm-up=${settings.warmupS}s documents=${settings.documents} (${settings.seedDocuments} seeded) workers ingest/search/questions/reads=${settings.ingestWorkers}/${settings.searchWorkers}/${settings.questionWorkers}/${settings.readWorkers} scan every ${settings.scanEveryS}s cpus=${cpus().length} cores busy before=${busyBefore} load ${loadavg().map((l) => l.toFixed(2)).join(' ')}\n`,
  );
  const modes = [];
  try {
    for (const mode of settings.modes) modes.push(await soakMode(mode, (service) => (current = service), stamp));
  } catch (error) {
    process.stderr.write(`\nsoak failed: ${error?.stack ?? error}\n`);
    if (current) {
      process.stderr.write(`service output:\n${current.output().slice(-4000)}\n`);
      await current.destroy().catch((e) => process.stderr.write(`cleanup failed: ${e}\n`));
    }
    process.exit(1);
  }
  const verdicts = modes.map((m) => ({ mode: m.mode, errors: m.errors, no_errors: m.errors === 0, memory_flat: m.memory.flat, end_vs_after_warmup: m.memory.end_vs_after_warmup, slope_mb_per_min: m.memory.slope_mb_per_min }));
  const report = {
    benchmark: 'soak',
    started_at: startedAt.toISOString(),
    finished_at: new Date().toISOString(),
    // BENCH_GIT_COMMIT: the commit measured when running from an export of it (no .git), as the stats bench.
    git_commit: process.env.BENCH_GIT_COMMIT || gitCommit(),
    settings: { ...settings, load: 'closed-loop workers with pauses, node:http keep-alive Agents, same machine (loopback)' },
    goals: { errors: 0, memory_flat_within: settings.flatWithin },
    machine: machineInfo(busyBefore),
    verdicts,
    modes,
  };
  const file = writeResults('soak', startedAt, report);
  console.log('');
  console.log(`## soak (${settings.minutes} min per mode, warm-up ${settings.warmupS} s, ${cpus().length} CPUs, node ${process.version})`);
  console.log('');
  console.log(opsTable(modes));
  console.log('');
  console.log(memoryTable(modes));
  console.log('');
  for (const m of modes) {
    const scans = m.scans.map((s) => (s.outcome === 'completed' ? `${s.walk_s} + ${s.scan_s} s` : s.outcome)).join(', ') || 'none';
    console.log(`- ${m.mode}: ${m.ops} ops (${m.ops_per_s}/s), ${m.errors} errors, ${m.expected_4xx.length} raced 409; full scans (steps + scan): ${scans}; service ${Object.values(m.cpu.service_cores).reduce((a, b) => a + (b ?? 0), 0).toFixed(2)} cores, PostgreSQL+Redis ${m.cpu.postgres_redis_cores ?? '–'}, other ${m.cpu.other_cores ?? '–'}; ${m.documents.live_at_end} live documents at the end; service log ${m.service_log.file} (${m.service_log.lines} lines, by level ${JSON.stringify(m.service_log.by_level)})`);
    for (const [message, n] of Object.entries(m.service_log.errors)) console.log(`  - service log error ×${n}: ${message}`);
    for (const failure of m.failures.slice(0, 20)) console.log(`  - ${failure.at_s}s ${failure.kind} ${failure.route ?? ''} ${failure.status ?? ''} ${failure.body ?? failure.error}`.slice(0, 600));
    if (m.failures.length > 20) console.log(`  - ... ${m.failures.length - 20} more in the JSON`);
  }
  console.log('');
  console.log(`Goals: 0 errors; memory flat after the warm-up (last-minute median and the regression's projected growth within ${settings.flatWithin * 100} % of the first minute after it): ${verdicts.map((v) => `${v.mode} ${v.no_errors ? '0 errors' : `**${v.errors} errors**`}, ${v.memory_flat ? 'flat' : '**not flat**'}`).join('; ')}`);
  console.log(`Results: ${relative(ROOT, file)}`);
  const pass = verdicts.every((v) => v.no_errors && v.memory_flat);
  setTimeout(() => process.exit(pass ? 0 : 1), 1000).unref();
}

await main();
