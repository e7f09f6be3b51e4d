import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DUPLICATES, DuplicateDocument, duplicateFingerprint, findDuplicateClusters, jaccard } from '@svc/text';
import { DEMO_DIR, loadCorpus, parseAnswerKey } from './demo-corpus';
import { FamilyKind, generateDuplicatesCorpus, pairKey, pairsOf, pairwiseScores } from './duplicates-corpus';

/**
 * Duplicate detection (ANALYSIS.md §6) with the default parameters, on the demo corpus's answer key and on a
 * generated corpus with planted families (README "Duplicates"). Pure functions, no database.
 */

const fingerprint = (id: string, text: string): DuplicateDocument => ({ id, ...duplicateFingerprint(text) });
const round = (x: number) => Math.round(x * 1000) / 1000;

describe('duplicates: demo corpus answer key', () => {
  const corpus = loadCorpus();
  const docs = corpus.map((d) => fingerprint(d.externalId, d.content));
  const byId = new Map(docs.map((d) => [d.id, d]));
  const sections = parseAnswerKey(readFileSync(join(DEMO_DIR, 'ANSWER-KEY.md'), 'utf8'));
  const planted = sections
    .filter((s) => s.part === 'Exact duplicate' || s.part === 'Near-duplicates')
    .map((s) => ({ title: s.title, documents: [...new Set(s.rows.map((r) => r.document))].sort() }));

  it('clusters every planted pair, exact and near, and nothing else', () => {
    expect(planted.map((p) => p.documents.length)).toEqual([2, 2, 2, 2, 2]);
    const clusters = findDuplicateClusters(docs);
    const pairJaccard = (a: string, b: string) => jaccard((byId.get(a) as DuplicateDocument).shingles, (byId.get(b) as DuplicateDocument).shingles);

    const plantedPairs = new Set(planted.map((p) => pairKey(p.documents[0], p.documents[1])));
    let highest = { pair: '', jaccard: 0 };
    for (let i = 0; i < docs.length; i++) {
      for (let j = i + 1; j < docs.length; j++) {
        const key = pairKey(docs[i].id, docs[j].id);
        const similarity = jaccard(docs[i].shingles, docs[j].shingles);
        if (!plantedPairs.has(key) && similarity > highest.jaccard) highest = { pair: key, jaccard: similarity };
      }
    }
    const lowestPlanted = Math.min(...planted.map((p) => pairJaccard(p.documents[0], p.documents[1])));
    console.log(
      [
        `Demo corpus, ${docs.length} documents, word ${DUPLICATES.shingleSize}-shingles, threshold ${DUPLICATES.threshold}:`,
        ...planted.map((p) => `  ${p.title.padEnd(60)} ${p.documents.join(' ~ ')}: Jaccard ${round(pairJaccard(p.documents[0], p.documents[1]))}`),
        `  highest pair not planted: ${highest.pair}: Jaccard ${round(highest.jaccard)}`,
        `  margin: lowest planted ${round(lowestPlanted)} − highest other ${round(highest.jaccard)} = ${round(lowestPlanted - highest.jaccard)}` +
          ` (threshold ${DUPLICATES.threshold} sits ${round(lowestPlanted - DUPLICATES.threshold)} below the lowest planted pair)`,
        `  clusters: ${clusters.map((c) => `[${c.documentIds.join(', ')}] ${c.exact ? 'exact' : `near ${round(c.similarity)}`}`).join('; ')}`,
      ].join('\n'),
    );

    expect(clusters.map((c) => c.documentIds).sort()).toEqual(planted.map((p) => p.documents).sort());
    const exact = clusters.filter((c) => c.exact).map((c) => c.documentIds);
    expect(exact).toEqual([['hr/remote-work-copy.md', 'hr/remote-work.md']]);
    expect(highest.jaccard).toBeLessThan(DUPLICATES.threshold);
  });

  it('keeps look-alikes apart: same template, other facts', () => {
    const clustered = new Set(findDuplicateClusters(docs).flatMap((c) => c.documentIds));
    expect(clustered.has('products/basecamp-4-tent.md')).toBe(false);
    expect(clustered.has('products/summit-shell-jacket.md')).toBe(false);
    expect(clustered.has('products/alpine-down-jacket.md')).toBe(false);
  });
});

describe('duplicates: generated corpus', () => {
  const DOCUMENTS = 2000;
  const corpus = generateDuplicatesCorpus({ documents: DOCUMENTS });
  const docs = corpus.documents.map((d) => fingerprint(d.id, d.text));
  const byId = new Map(docs.map((d) => [d.id, d]));

  it(`finds the planted pairs of ${DOCUMENTS} documents with pairwise precision and recall ≥ 0.95`, () => {
    const clusters = findDuplicateClusters(docs);
    const predicted = pairsOf(clusters.map((c) => c.documentIds));
    const scores = pairwiseScores(predicted, corpus.duplicatePairs);
    const exactOnly = pairwiseScores(pairsOf(clusters.filter((c) => c.exact).map((c) => c.documentIds)), corpus.duplicatePairs);

    const rows: string[] = [];
    const byKind = new Map<string, { jaccards: number[]; clustered: number }>();
    for (const family of corpus.families) {
      const label = `${family.kind}${family.editRate ? ` @${family.editRate}` : ''}`;
      const entry = byKind.get(label) ?? { jaccards: [], clustered: 0 };
      const [first, last] = [family.ids[0], family.ids[family.ids.length - 1]];
      entry.jaccards.push(jaccard((byId.get(first) as DuplicateDocument).shingles, (byId.get(last) as DuplicateDocument).shingles));
      if (predicted.has(pairKey(first, last))) entry.clustered++;
      byKind.set(label, entry);
    }
    for (const [label, { jaccards, clustered }] of byKind) {
      jaccards.sort((a, b) => a - b);
      rows.push(
        `  ${label.padEnd(20)} ${String(jaccards.length).padStart(4)} families, Jaccard min ${round(jaccards[0])} median ${round(jaccards[jaccards.length >> 1])} max ${round(jaccards[jaccards.length - 1])}, clustered ${clustered}`,
      );
    }
    console.log(
      [
        `Generated corpus, ${DOCUMENTS} documents, threshold ${DUPLICATES.threshold}, ${DUPLICATES.bands} bands × ${DUPLICATES.rows} rows (original ~ last copy of each family):`,
        ...rows,
        `  pairwise precision ${round(scores.precision)}, recall ${round(scores.recall)} (${scores.truePositives} of ${scores.expected} planted pairs, ${scores.predicted} predicted)`,
        `  baseline, exact hash only: precision ${round(exactOnly.precision)}, recall ${round(exactOnly.recall)}`,
      ].join('\n'),
    );

    expect(scores.precision).toBeGreaterThanOrEqual(0.95);
    expect(scores.recall).toBeGreaterThanOrEqual(0.95);
    // Exact copies in other layouts have one canonical text.
    const exactKinds: FamilyKind[] = ['exact', 'exact+near'];
    for (const family of corpus.families.filter((f) => exactKinds.includes(f.kind))) {
      expect((byId.get(family.ids[1]) as DuplicateDocument).canonicalHash).toBe((byId.get(family.ids[0]) as DuplicateDocument).canonicalHash);
    }
  });

  it('is deterministic: the same seed gives the same corpus and the same clusters', () => {
    const again = generateDuplicatesCorpus({ documents: 200 });
    expect(again.documents).toEqual(generateDuplicatesCorpus({ documents: 200 }).documents);
    const fingerprints = again.documents.map((d) => fingerprint(d.id, d.text));
    expect(findDuplicateClusters([...fingerprints].reverse())).toEqual(findDuplicateClusters(fingerprints));
  });
});
