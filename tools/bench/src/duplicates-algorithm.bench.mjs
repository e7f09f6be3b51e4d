// Duplicate detection benchmark, algorithm only (no database, no service): the pure functions of
// `@svc/text` (libs/shared/text/src/duplicates) over generated corpora of 10,000 and 100,000 documents.
//
//   npm run bench:duplicates-algorithm
//   BENCH_SIZES=10000 BENCH_QUERIES=200 node tools/bench/src/duplicates-algorithm.bench.mjs
//
// Runs the BUILT workspace (dist/, or BENCH_DIST): dist/libs/shared/text/src/duplicates and the corpus
// generator dist/tools/eval/src/duplicates-corpus.js (about 1.2 KB a document, planted exact copies in other
// layouts, near copies at four edit rates, far copies and look-alikes that must stay apart; see
// tools/eval/README.md "Duplicates"). For each size, in one process, one core:
//   1. generate the corpus (not timed as the algorithm);
//   2. fingerprint every document, timed phase by phase over the whole corpus: canonical text, its SHA-256,
//      word shingles, MinHash signature;
//   3. findDuplicateClusters with the default options, its phases from its stats: band keys and index,
//      candidate pairs, exact Jaccard verification, complete linkage;
//   4. pairwise precision and recall of the clusters against the planted pairs;
//   5. peak RSS of the process (VmHWM, reset before the size through /proc/self/clear_refs);
//   6. the incremental check of ONE document against all the others, BENCH_QUERIES times (half members of
//      planted families, half other documents): fingerprint its text, look candidates up by band key in an
//      in-memory index of the size's documents (and by canonical hash), verify them with matchDocument.
//      Checks that every answer equals the document's cluster mates in the batch.
// Prints a Markdown table and writes JSON to tools/bench/results/duplicates-algorithm-<timestamp>.json.
import { Buffer } from 'node:buffer';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { envNumber, gitCommit, latencySummary, machineInfo, machineTicks, ROOT, round, writeResults } from './bench-kit.mjs';

const DIST = process.env.BENCH_DIST ? resolve(process.env.BENCH_DIST) : join(ROOT, 'dist');
const LIBRARY = join(DIST, 'libs', 'shared', 'text', 'src', 'duplicates', 'index.js');
const GENERATOR = join(DIST, 'tools', 'eval', 'src', 'duplicates-corpus.js');
if (!existsSync(LIBRARY) || !existsSync(GENERATOR)) {
  throw new Error(`${LIBRARY} or ${GENERATOR} is missing: run \`npm run build\` first (or set BENCH_DIST).`);
}
const require = createRequire(import.meta.url);
const dup = require(LIBRARY);
const { generateDuplicatesCorpus, pairsOf, pairwiseScores } = require(GENERATOR);

const SIZES = (process.env.BENCH_SIZES ?? '10000,100000').split(',').map((s) => Number(s.trim()));
for (const size of SIZES) if (!Number.isInteger(size) || size < 10) throw new Error(`BENCH_SIZES: "${size}" is not a size of at least 10`);
const QUERIES = envNumber('BENCH_QUERIES', 100, { min: 2, integer: true });
const SEED = envNumber('BENCH_SEED', 20261126, { integer: true });

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
const log = (message) => process.stderr.write(`${message}\n`);

/** Runs `work` over every index, returns the seconds taken. */
function timed(count, work) {
  const started = performance.now();
  for (let i = 0; i < count; i++) work(i);
  return (performance.now() - started) / 1000;
}

function runSize(size) {
  globalThis.gc?.();
  const peakReset = resetPeakRss();
  log(`[${size}] generating`);
  let started = performance.now();
  const corpus = generateDuplicatesCorpus({ documents: size, seed: SEED });
  const generationS = (performance.now() - started) / 1000;
  const texts = corpus.documents.map((d) => d.text);
  const ids = corpus.documents.map((d) => d.id);
  const bytes = texts.reduce((sum, t) => sum + Buffer.byteLength(t), 0);

  log(`[${size}] fingerprinting`);
  const canonical = new Array(size);
  const hashes = new Array(size);
  const shingles = new Array(size);
  const signatures = new Array(size);
  const fingerprint = {
    canonical_s: timed(size, (i) => (canonical[i] = dup.canonicalText(texts[i]))),
    hash_s: timed(size, (i) => (hashes[i] = dup.canonicalHash(canonical[i], { canonical: true }))),
    shingles_s: timed(size, (i) => (shingles[i] = dup.wordShingles(canonical[i]))),
    signatures_s: timed(size, (i) => (signatures[i] = dup.minHashSignature(shingles[i]))),
  };
  fingerprint.total_s = fingerprint.canonical_s + fingerprint.hash_s + fingerprint.shingles_s + fingerprint.signatures_s;
  canonical.length = 0;
  const documents = ids.map((id, i) => ({ id, canonicalHash: hashes[i], shingles: shingles[i], signature: signatures[i] }));
  const shingleCounts = shingles.map((s) => s.length).sort((a, b) => a - b);

  log(`[${size}] clustering`);
  const stats = {};
  started = performance.now();
  const clusters = dup.findDuplicateClusters(documents, dup.DEFAULT_DUPLICATE_OPTIONS, stats);
  const clusteringS = (performance.now() - started) / 1000;
  const predicted = pairsOf(clusters.map((c) => c.documentIds));
  const scores = pairwiseScores(predicted, corpus.duplicatePairs);
  const peak = peakReset ? peakRssMb() : null;

  log(`[${size}] matching one document, ${QUERIES} times`);
  const params = dup.DEFAULT_DUPLICATE_OPTIONS.params;
  started = performance.now();
  const keys = new Int32Array(size * params.bands);
  documents.forEach((d, i) => dup.writeBandKeys(d.signature, params, keys, i * params.bands));
  const index = new dup.BandIndex(keys, params.bands);
  const byHash = new Map();
  documents.forEach((d, i) => {
    const same = byHash.get(d.canonicalHash);
    if (same) same.push(i);
    else byHash.set(d.canonicalHash, [i]);
  });
  const indexS = (performance.now() - started) / 1000;
  const position = new Map(ids.map((id, i) => [id, i]));
  const mates = new Map();
  for (const c of clusters) for (const id of c.documentIds) mates.set(id, c.documentIds.filter((x) => x !== id));
  const familyMembers = corpus.families.map((f) => f.ids[f.ids.length - 1]);
  const inFamily = new Set(corpus.families.flatMap((f) => f.ids));
  const others = ids.filter((id) => !inFamily.has(id));
  const queries = [];
  for (let q = 0; q < QUERIES; q++) {
    const pool = q % 2 === 0 ? familyMembers : others;
    queries.push(pool[Math.floor((q / QUERIES) * pool.length)]);
  }
  const total = [];
  const parts = { fingerprint: [], lookup: [], verify: [] };
  const candidateCounts = [];
  let agree = 0;
  for (const id of queries) {
    const i = position.get(id);
    const t0 = performance.now();
    const print = dup.duplicateFingerprint(texts[i]);
    const t1 = performance.now();
    const found = new Set([...index.candidates(print.bandKeys), ...(byHash.get(print.canonicalHash) ?? [])]);
    const candidates = [...found].map((n) => documents[n]);
    const t2 = performance.now();
    const matches = dup.matchDocument({ id, canonicalHash: print.canonicalHash, shingles: print.shingles }, candidates);
    const t3 = performance.now();
    parts.fingerprint.push(t1 - t0);
    parts.lookup.push(t2 - t1);
    parts.verify.push(t3 - t2);
    total.push(t3 - t0);
    candidateCounts.push(candidates.length);
    const expected = (mates.get(id) ?? []).join(',');
    if (matches.map((m) => m.id).sort().join(',') === expected) agree++;
  }

  return {
    documents: size,
    mean_document_bytes: round(bytes / size, 0),
    shingles_per_document: { p50: shingleCounts[size >> 1], max: shingleCounts[size - 1] },
    generation_s: round(generationS),
    fingerprint_s: Object.fromEntries(Object.entries(fingerprint).map(([k, v]) => [k, round(v)])),
    clustering: {
      total_s: round(clusteringS),
      index_s: round(stats.ms.index / 1000),
      candidates_s: round(stats.ms.candidates / 1000),
      verification_s: round(stats.ms.verification / 1000),
      linkage_s: round(stats.ms.clustering / 1000),
      contents: stats.contents,
      candidate_pairs: stats.candidatePairs,
      verified_pairs: stats.verifiedPairs,
      clusters: clusters.length,
      exact_clusters: clusters.filter((c) => c.exact).length,
    },
    algorithm_total_s: round(fingerprint.total_s + clusteringS),
    pairwise: { precision: round(scores.precision, 4), recall: round(scores.recall, 4), true_positives: scores.truePositives, predicted: scores.predicted, expected: scores.expected },
    peak_rss_mb: peak,
    match_one: {
      index_build_s: round(indexS),
      queries: QUERIES,
      total_ms: latencySummary(total),
      fingerprint_ms: latencySummary(parts.fingerprint),
      lookup_ms: latencySummary(parts.lookup),
      verify_ms: latencySummary(parts.verify),
      candidates: latencySummary(candidateCounts),
      equal_to_batch: `${agree}/${QUERIES}`,
    },
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

const header = '| Documents | Fingerprint s (canon / sha / shingles / minhash) | Index s | Candidates s | Verify s | Linkage s | Algorithm total s | Candidate pairs | Verified | Clusters | Precision | Recall | Peak RSS MiB | Match one p50 / max ms (candidates p50) | = batch |';
const lines = [header, `|${header.split('|').slice(1, -1).map(() => '---').join('|')}|`];
for (const r of results) {
  const f = r.fingerprint_s;
  const c = r.clustering;
  const m = r.match_one;
  lines.push(
    `| ${r.documents.toLocaleString('en-GB')} | ${f.total_s} (${f.canonical_s} / ${f.hash_s} / ${f.shingles_s} / ${f.signatures_s}) | ${c.index_s} | ${c.candidates_s} | ${c.verification_s} | ${c.linkage_s} | ${r.algorithm_total_s} | ${c.candidate_pairs.toLocaleString('en-GB')} | ${c.verified_pairs.toLocaleString('en-GB')} | ${c.clusters.toLocaleString('en-GB')} | ${r.pairwise.precision} | ${r.pairwise.recall} | ${r.peak_rss_mb ?? '-'} | ${m.total_ms.p50} / ${m.total_ms.max} (${m.candidates.p50}) | ${m.equal_to_batch} |`,
  );
}
console.log(lines.join('\n'));
const file = writeResults('duplicates-algorithm', startedAt, {
  benchmark: 'duplicates-algorithm',
  started_at: startedAt.toISOString(),
  git_commit: gitCommit(),
  machine: machineInfo(coresBusy),
  settings: { sizes: SIZES, queries: QUERIES, seed: SEED, dist: DIST, constants: dup.DUPLICATES },
  results,
});
console.log(`\nFull results: ${file}`);
