// Missing-subject clustering benchmark, algorithm only (no database, no service): the pure functions of
// `@svc/text` (libs/shared/text/src/subjects) over generated sets of unanswered questions (default 10,000).
//
//   npm run bench:subjects-algorithm
//   BENCH_SIZES=1000,10000 BENCH_QUERIES=200 node tools/bench/src/subjects-algorithm.bench.mjs
//
// Runs the BUILT workspace (dist/, or BENCH_DIST). The generator (below, seeded) writes questions as users
// would: a subject is three topic words (made-up words, distinct after stemming; for a quarter of the
// subjects one of them is shared with other subjects), each question takes most of its subject's words, in one of 24 English and
// French frames, with a generic business word ("manager", "contract", "office"...) half of the time;
// subject sizes follow a Zipf law; 10 % of the questions are singletons. For each size, in one process, one core:
//   1. generate the questions (not timed);
//   2. questionTerms of every question, timed apart (clusterQuestions computes them again);
//   3. clusterQuestions with the default threshold (terms, statistics, vectors, average linkage, labels);
//   4. pairwise precision and recall against the generated subjects;
//   5. peak RSS of the process (VmHWM, reset before the size through /proc/self/clear_refs);
//   6. the incremental path for BENCH_QUERIES new questions: questionVector + nearestSubject over every
//      subject's stored centroid (a linear scan, as an in-memory service would do it).
// Prints a Markdown table and writes JSON to tools/bench/results/subjects-algorithm-<timestamp>.json.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { envNumber, gitCommit, latencySummary, machineInfo, machineTicks, ROOT, round, writeResults } from './bench-kit.mjs';

const DIST = process.env.BENCH_DIST ? resolve(process.env.BENCH_DIST) : join(ROOT, 'dist');
const LIBRARY = join(DIST, 'libs', 'shared', 'text', 'src', 'subjects', 'index.js');
if (!existsSync(LIBRARY)) {
  throw new Error(`${LIBRARY} is missing: run \`npm run build\` first (or set BENCH_DIST).`);
}
const require = createRequire(import.meta.url);
const subjects = require(LIBRARY);

const SIZES = (process.env.BENCH_SIZES ?? '10000').split(',').map((s) => Number(s.trim()));
for (const size of SIZES) if (!Number.isInteger(size) || size < 10) throw new Error(`BENCH_SIZES: "${size}" is not a size of at least 10`);
const QUERIES = envNumber('BENCH_QUERIES', 100, { min: 2, integer: true });
const SEED = envNumber('BENCH_SEED', 20261126, { integer: true });

const log = (message) => process.stderr.write(`${message}\n`);

function peakRssMb() {
  try {
    const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]);
    return Number.isFinite(kb) ? round(kb / 1024, 0) : null;
  } catch {
    return null;
  }
}
function resetPeakRss() {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Consonant-vowel syllables: made-up words end in a, i, o or u, which neither stemmer takes for a suffix. */
const SYLLABLES = 'b d f g k l m n p r s t v z'.split(' ').flatMap((c) => ['a', 'i', 'o', 'u'].map((v) => c + v));
const GENERIC = 'manager contract office team staff employee customer request form approval rule policy procedure process deadline budget account project client meeting'.split(' ');
const FRAMES_EN = [
  'How does the {a} {b} work?', 'What is the {a} {b} policy?', 'Who approves {a} {b} for the {g}?', 'Is there a {a} {b} {c}?',
  '{a} {b}: what are the rules?', 'Where do I find the {a} {c}?', 'Can the {g} ask for {a} {b}?', 'How long does {a} {b} take?',
  'When is the {a} {b} {c} due?', 'Do we have a {a} {c} procedure?', 'What happens if the {a} {b} is late?', 'how to request {a} {b} {c}',
  'Is {a} {b} paid?', 'Who is eligible for {a} {c}?', 'What changed in the {a} {b} {c}?', 'Which {g} handles {a} {b}?',
];
const FRAMES_FR = [
  'Quelle est la règle pour {a} {b} ?', 'Comment demander {a} {b} ?', 'Qui valide {a} {b} {c} ?', 'Où trouver {a} {c} ?',
  'Le {a} {b} est-il payé ?', 'Combien de temps pour {a} {b} ?', 'Y a-t-il une procédure {a} {c} ?', '{a} {b} : quelles règles ?',
];

/** Made-up words of four syllables whose subject stems (six letters) are all distinct and the same in both languages. */
function vocabulary(next, count) {
  const words = [];
  const stems = new Set();
  for (let attempt = 0; words.length < count; attempt++) {
    if (attempt > count * 100) throw new Error(`could not make ${count} distinct words`);
    const word = Array.from({ length: 4 }, () => SYLLABLES[Math.floor(next() * SYLLABLES.length)]).join('');
    const stem = subjects.subjectStem(word, 'en');
    if (stems.has(stem) || stem !== subjects.subjectStem(word, 'fr')) continue;
    stems.add(stem);
    words.push(word);
  }
  return words;
}

function generateQuestions(size, seed) {
  const next = random(seed);
  const singles = Math.round(size * 0.1);
  const subjectCount = Math.max(2, Math.round(size / 25));
  const words = vocabulary(next, subjectCount * 3 + singles * 3 + 200);
  const shared = words.splice(0, 200);
  const topics = Array.from({ length: subjectCount }, () => {
    const own = words.splice(0, 3);
    return next() < 0.25 ? [own[0], own[1], shared[Math.floor(next() * shared.length)]] : own;
  });
  // Zipf sizes: subject k gets a share proportional to 1 / (k + 1).
  const weights = topics.map((_, k) => 1 / (k + 1));
  const total = weights.reduce((a, b) => a + b, 0);
  const sizes = weights.map((w) => Math.max(2, Math.round((w / total) * (size - singles))));
  const questions = [];
  const fill = (frame, topic, generic) =>
    frame.replace(/\{([abcg])\}/gu, (_, k) => (k === 'g' ? generic : k === 'a' ? topic[0] : k === 'b' ? (next() < 0.85 ? topic[1] : '') : next() < 0.7 ? topic[2] : '')).replace(/\s+/gu, ' ').trim();
  topics.forEach((topic, s) => {
    for (let i = 0; i < sizes[s] && questions.length < size - singles; i++) {
      const french = next() < 0.15;
      const frames = french ? FRAMES_FR : FRAMES_EN;
      const generic = GENERIC[Math.floor(next() * GENERIC.length)];
      let text = fill(frames[Math.floor(next() * frames.length)], topic, generic);
      if (next() < 0.5) text = `${text.replace(/[ ?]+$/u, '')} (${generic})${french ? ' ?' : '?'}`;
      questions.push({ text, subject: `s${s}` });
    }
  });
  while (questions.length < size) {
    const own = words.splice(0, 3);
    questions.push({ text: fill(FRAMES_EN[Math.floor(next() * FRAMES_EN.length)], own, GENERIC[Math.floor(next() * GENERIC.length)]), subject: `single${questions.length}` });
  }
  // Ids in a shuffled order, so that a subject's questions are not neighbours in id order.
  const order = questions.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order.map((q, i) => ({ id: `q${String(i).padStart(6, '0')}`, ...questions[q] }));
}

function pairwise(groups, labelOf) {
  // Counts same-label pairs without listing them: per cluster, per label, n(n-1)/2.
  const pairs = (n) => (n * (n - 1)) / 2;
  let predicted = 0;
  let right = 0;
  for (const ids of groups) {
    predicted += pairs(ids.length);
    const counts = new Map();
    for (const id of ids) counts.set(labelOf.get(id), (counts.get(labelOf.get(id)) ?? 0) + 1);
    for (const n of counts.values()) right += pairs(n);
  }
  const bySubject = new Map();
  for (const label of labelOf.values()) bySubject.set(label, (bySubject.get(label) ?? 0) + 1);
  let expected = 0;
  for (const n of bySubject.values()) expected += pairs(n);
  return { precision: predicted === 0 ? 1 : right / predicted, recall: expected === 0 ? 1 : right / expected, predicted, expected, right };
}

function runSize(size) {
  globalThis.gc?.();
  const peakReset = resetPeakRss();
  log(`[${size}] generating`);
  const generated = generateQuestions(size, SEED);
  const questions = generated.map(({ id, text }) => ({ id, text }));
  const labelOf = new Map(generated.map((q) => [q.id, q.subject]));

  log(`[${size}] question terms`);
  let started = performance.now();
  const terms = questions.map((q) => subjects.questionTerms(q.text));
  const termsS = (performance.now() - started) / 1000;
  const stemsPerQuestion = terms.reduce((sum, t) => sum + t.length, 0) / size;

  log(`[${size}] clustering`);
  started = performance.now();
  const clusters = subjects.clusterQuestions(questions, subjects.DEFAULT_SUBJECT_CLUSTER_OPTIONS);
  const clusteringS = (performance.now() - started) / 1000;
  const peak = peakReset ? peakRssMb() : null;
  const scores = pairwise(
    clusters.map((c) => c.ids),
    labelOf,
  );
  const sizes = clusters.map((c) => c.ids.length).sort((a, b) => b - a);

  log(`[${size}] one new question against every subject, ${QUERIES} times`);
  const stats = subjects.termStatistics(terms);
  const stored = clusters.map((c, i) => ({ id: `ms_${i}`, centroid: c.profile.centroid }));
  const clusterOf = new Map();
  clusters.forEach((c, i) => c.ids.forEach((id) => clusterOf.set(id, `ms_${i}`)));
  const latencies = [];
  let agree = 0;
  for (let q = 0; q < QUERIES; q++) {
    const question = questions[Math.floor((q / QUERIES) * size)];
    const t0 = performance.now();
    const near = subjects.nearestSubject(subjects.questionVector(question.text, stats), stored);
    latencies.push(performance.now() - t0);
    if ((near?.id ?? null) === clusterOf.get(question.id) || (near === null && clusters.find((c) => c.ids.includes(question.id))?.ids.length === 1)) agree++;
  }

  return {
    questions: size,
    generated_subjects: new Set(labelOf.values()).size,
    stems_per_question: round(stemsPerQuestion, 1),
    question_terms_s: round(termsS),
    cluster_questions_s: round(clusteringS),
    clusters: clusters.length,
    largest_clusters: sizes.slice(0, 5),
    singleton_clusters: sizes.filter((n) => n === 1).length,
    pairwise: { precision: round(scores.precision, 4), recall: round(scores.recall, 4), predicted: scores.predicted, expected: scores.expected },
    peak_rss_mb: peak,
    join_one: { subjects: stored.length, ms: latencySummary(latencies), joins_own_batch_subject: `${agree}/${QUERIES}` },
    sample_labels: clusters
      .filter((c) => c.ids.length > 1)
      .slice(0, 5)
      .map((c) => c.label),
  };
}

const startedAt = new Date();
const before = machineTicks();
const results = [];
for (const size of SIZES) {
  results.push(runSize(size));
  log(`[${size}] done: ${JSON.stringify(results.at(-1))}`);
}
const after = machineTicks();
const coresBusy = before && after ? round(((after.busy - before.busy) / (after.total - before.total)) * cpus().length, 2) : null;

const header = '| Questions | Generated subjects | questionTerms s | clusterQuestions s | Clusters (singletons) | Largest | Precision | Recall | Peak RSS MiB | Join one p50 / max ms (subjects) | Joins its batch subject |';
const lines = [header, `|${header.split('|').slice(1, -1).map(() => '---').join('|')}|`];
for (const r of results) {
  lines.push(
    `| ${r.questions.toLocaleString('en-GB')} | ${r.generated_subjects.toLocaleString('en-GB')} | ${r.question_terms_s} | ${r.cluster_questions_s} | ${r.clusters.toLocaleString('en-GB')} (${r.singleton_clusters.toLocaleString('en-GB')}) | ${r.largest_clusters[0]} | ${r.pairwise.precision} | ${r.pairwise.recall} | ${r.peak_rss_mb ?? '-'} | ${r.join_one.ms.p50} / ${r.join_one.ms.max} (${r.join_one.subjects.toLocaleString('en-GB')}) | ${r.join_one.joins_own_batch_subject} |`,
  );
}
console.log(lines.join('\n'));
const file = writeResults('subjects-algorithm', startedAt, {
  benchmark: 'subjects-algorithm',
  started_at: startedAt.toISOString(),
  git_commit: gitCommit(),
  machine: machineInfo(coresBusy),
  settings: { sizes: SIZES, queries: QUERIES, seed: SEED, dist: DIST, constants: subjects.SUBJECTS },
  results,
});
console.log(`\nFull results: ${file}`);
