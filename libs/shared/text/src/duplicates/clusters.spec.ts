import { DuplicateDocument, DuplicateRunStats, findDuplicateClusters, matchDocument } from './clusters';
import { DUPLICATES } from './constants';
import { duplicateFingerprint } from './fingerprint';
import { BandIndex, writeBandKeys } from './lsh';
import { MinHasher } from './minhash';
import { jaccard } from './shingles';

const hasher = new MinHasher();
const params = { bands: DUPLICATES.bands, rows: DUPLICATES.rows };
const options = { threshold: 0.7, params };

/** A document whose shingles are the integers [from, to), and whose content is told by `hash`. */
function rangeDocument(id: string, from: number, to: number, hash = `h${from}-${to}`): DuplicateDocument {
  const shingles = Uint32Array.from({ length: to - from }, (_, i) => from + i);
  return { id, canonicalHash: hash, shingles, signature: hasher.signature(shingles) };
}

function textDocument(id: string, text: string): DuplicateDocument {
  return { id, ...duplicateFingerprint(text) };
}

/** Seeded policy-like sentences: every document different, ~30 words a sentence. */
function sentences(seed: number, count: number): string[] {
  const words = 'refund request manager approve within days store customer receipt invoice team payment review policy office account form record report supplier'.split(' ');
  let state = seed;
  const next = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0);
  return Array.from({ length: count }, () => Array.from({ length: 30 }, () => words[next() % words.length]).join(' ') + '.');
}

describe('duplicate clusters', () => {
  it('groups exact duplicates by canonical hash, whatever their markup', () => {
    const body = sentences(1, 6).join(' ');
    const clusters = findDuplicateClusters([
      textDocument('b', `# Title\n\n${body}`),
      textDocument('a', `<h1>Title</h1><p>${body}</p>`),
      textDocument('c', sentences(2, 6).join(' ')),
    ]);
    expect(clusters).toEqual([{ documentIds: ['a', 'b'], canonicalHash: textDocument('x', `Title ${body}`).canonicalHash, similarity: 1, exact: true }]);
  });

  it('joins near-duplicates verified by exact Jaccard, exact copies with them, and reports the lowest pair', () => {
    const original = sentences(3, 8);
    const edited = [...original];
    edited[2] = sentences(4, 1)[0];
    const docs = [textDocument('orig', original.join('\n\n')), textDocument('copy', `# ${original.join('\n\n# ')}`), textDocument('edit', edited.join('\n\n'))];
    const expected = jaccard(docs[0].shingles, docs[2].shingles);
    expect(expected).toBeGreaterThan(0.7);
    expect(expected).toBeLessThan(1);
    const [cluster, ...rest] = findDuplicateClusters(docs);
    expect(rest).toEqual([]);
    expect(cluster.documentIds).toEqual(['copy', 'edit', 'orig']);
    expect(cluster.exact).toBe(false);
    expect(cluster.similarity).toBe(expected);
    // The hash two documents share wins over the edited copy's.
    expect(cluster.canonicalHash).toBe(docs[0].canonicalHash);
  });

  it('does not chain: A ~ B and B ~ C with A ≁ C leaves C out', () => {
    const a = rangeDocument('a', 0, 100);
    const b = rangeDocument('b', 10, 110);
    const c = rangeDocument('c', 20, 120);
    expect(jaccard(a.shingles, b.shingles)).toBeCloseTo(90 / 110, 12);
    expect(jaccard(b.shingles, c.shingles)).toBeCloseTo(90 / 110, 12);
    expect(jaccard(a.shingles, c.shingles)).toBeCloseTo(80 / 120, 12);
    const clusters = findDuplicateClusters([c, b, a], options);
    expect(clusters).toEqual([{ documentIds: ['a', 'b'], canonicalHash: 'h0-100', similarity: 90 / 110, exact: false }]);
  });

  it('reports its counts and phase times when asked', () => {
    const stats = {} as DuplicateRunStats;
    const docs = [rangeDocument('a', 0, 100), rangeDocument('b', 10, 110), rangeDocument('c', 20, 120), rangeDocument('d', 0, 100, 'h0-100'), rangeDocument('e', 0, 0)];
    findDuplicateClusters(docs, options, stats);
    expect(stats).toMatchObject({ documents: 4, contents: 3, verifiedPairs: 2 });
    expect(stats.candidatePairs).toBeGreaterThanOrEqual(2);
    expect(stats.candidatePairs).toBeLessThanOrEqual(3);
    for (const ms of Object.values(stats.ms)) expect(ms).toBeGreaterThanOrEqual(0);
  });

  it('merges groups only when every cross pair reaches the threshold, strongest pairs first', () => {
    // b-c is the strongest pair (0.96); a is close enough to b (0.709) but not to c (0.681), so it stays out.
    const a = rangeDocument('a', 0, 100);
    const b = rangeDocument('b', 17, 117);
    const c = rangeDocument('c', 19, 119);
    expect(jaccard(a.shingles, b.shingles)).toBeGreaterThanOrEqual(0.7);
    expect(jaccard(a.shingles, c.shingles)).toBeLessThan(0.7);
    expect(findDuplicateClusters([a, b, c], options)).toEqual([{ documentIds: ['b', 'c'], canonicalHash: 'h17-117', similarity: 98 / 102, exact: false }]);
    // Close enough to both, it joins, and the cluster's similarity is its weakest pair.
    const near = rangeDocument('a', 12, 112);
    const [cluster] = findDuplicateClusters([near, b, c], options);
    expect(cluster.documentIds).toEqual(['a', 'b', 'c']);
    expect(cluster.similarity).toBeCloseTo(93 / 107, 12);
  });

  it('puts each document in one cluster at most, skips documents without words, and refuses an id twice', () => {
    const docs = [
      ...Array.from({ length: 12 }, (_, i) => rangeDocument(`r${String(i).padStart(2, '0')}`, i * 4, i * 4 + 100)),
      rangeDocument('empty-1', 0, 0, 'empty'),
      rangeDocument('empty-2', 0, 0, 'empty'),
    ];
    const clusters = findDuplicateClusters(docs, options);
    const ids = clusters.flatMap((x) => x.documentIds);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).not.toContain('empty-1');
    for (const cluster of clusters) {
      const members = docs.filter((d) => cluster.documentIds.includes(d.id));
      for (const x of members) for (const y of members) expect(jaccard(x.shingles, y.shingles)).toBeGreaterThanOrEqual(x === y ? 1 : 0.7);
    }
    expect(() => findDuplicateClusters([docs[0], docs[0]], options)).toThrow(/twice/);
  });

  it('gives the same clusters whatever the input order', () => {
    const docs = Array.from({ length: 30 }, (_, i) => rangeDocument(`d${String(i).padStart(2, '0')}`, (i % 10) * 7 + Math.floor(i / 10) * 3, (i % 10) * 7 + 100));
    const forward = findDuplicateClusters(docs, options);
    expect(forward.length).toBeGreaterThan(0);
    expect(findDuplicateClusters([...docs].reverse(), options)).toEqual(forward);
    const shuffled = [...docs].sort((x, y) => (x.signature[0] ^ 0x5555) - (y.signature[0] ^ 0x5555));
    expect(findDuplicateClusters(shuffled, options)).toEqual(forward);
    expect(forward.map((x) => x.documentIds[0])).toEqual([...forward.map((x) => x.documentIds[0])].sort());
  });
});

describe('matching one document', () => {
  const originals = Array.from({ length: 40 }, (_, i) => sentences(100 + i, 8));
  const docs: DuplicateDocument[] = [];
  originals.forEach((doc, i) => {
    docs.push(textDocument(`doc-${i}-a`, doc.join(' ')));
    if (i % 3 === 0) docs.push(textDocument(`doc-${i}-b`, `## ${doc.join('\n\n')}`));
    if (i % 4 === 0) docs.push(textDocument(`doc-${i}-c`, [...doc.slice(0, 7), sentences(900 + i, 1)[0]].join(' ')));
  });

  it('finds what the batch clusters with it, from all documents or from its band-key candidates', () => {
    const clusters = findDuplicateClusters(docs);
    expect(clusters.length).toBeGreaterThan(10);
    const keys = new Int32Array(docs.length * params.bands);
    docs.forEach((d, i) => writeBandKeys(d.signature, params, keys, i * params.bands));
    const index = new BandIndex(keys, params.bands);
    for (const [i, doc] of docs.entries()) {
      const clusterMates = (clusters.find((c) => c.documentIds.includes(doc.id))?.documentIds ?? []).filter((id) => id !== doc.id);
      const all = matchDocument(doc, docs);
      expect(all.map((m) => m.id).sort()).toEqual(clusterMates);
      const sameHash = docs.filter((d) => d.canonicalHash === doc.canonicalHash);
      const byBand = index.candidates(keys.subarray(i * params.bands, (i + 1) * params.bands)).map((n) => docs[n]);
      expect(matchDocument(doc, [...sameHash, ...byBand])).toEqual(all);
    }
  });

  it('marks exact matches, orders by similarity then id, and ignores itself and empty documents', () => {
    const [a, b, c] = docs.filter((d) => d.id.startsWith('doc-0-'));
    const matches = matchDocument(a, [c, b, a, rangeDocument('empty', 0, 0, a.canonicalHash)]);
    expect(matches.map((m) => [m.id, m.exact])).toEqual([
      ['doc-0-b', true],
      ['doc-0-c', false],
    ]);
    expect(matches[0].similarity).toBe(1);
    expect(matches[1].similarity).toBe(jaccard(a.shingles, c.shingles));
    expect(matchDocument(rangeDocument('none', 0, 0), docs)).toEqual([]);
  });
});
