import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_DIR, loadCorpus, loadQueries, parseAnswerKey } from './demo-corpus';

/** The demo corpus keeps the shape the issue asks for, and its answer key and query labels stay true to it. */
describe('demo corpus (libs/composition/demo)', () => {
  const corpus = loadCorpus();
  const byId = new Map(corpus.map((d) => [d.externalId, d]));
  const key = parseAnswerKey(readFileSync(join(DEMO_DIR, 'ANSWER-KEY.md'), 'utf8'));
  const words = (text: string) => text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;

  it('has 30 or more documents of 150 to 600 words, each opening with a "# " title and no front matter', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(30);
    for (const doc of corpus) {
      expect({ id: doc.externalId, firstLine: /^# \S/.test(doc.content) }).toEqual({ id: doc.externalId, firstLine: true });
      const count = words(doc.content);
      expect({ id: doc.externalId, inRange: count >= 150 && count <= 600, count }).toEqual({ id: doc.externalId, inRange: true, count });
    }
    expect(new Set(corpus.map((d) => d.owner))).toEqual(new Set(['finance', 'hr', 'it', 'products', 'retail', 'security', 'support']));
  });

  it('lists at least 8 contradictions, 3 near-duplicates, 1 exact duplicate and missing subjects', () => {
    const count = (part: string) => key.filter((s) => s.part === part && s.title !== part).length;
    expect(count('Contradictions')).toBeGreaterThanOrEqual(8);
    expect(count('Near-duplicates')).toBeGreaterThanOrEqual(3);
    expect(count('Missing subjects')).toBeGreaterThanOrEqual(1);
    const exact = key.find((s) => s.part === 'Exact duplicate');
    const [a, b] = [...new Set(exact?.rows.map((r) => r.document))];
    expect(byId.get(a)?.content).toBe(byId.get(b)?.content);
  });

  it('quotes every phrase of the answer key verbatim from its document', () => {
    const missing = key.flatMap((s) => s.rows.filter((r) => !byId.get(r.document)?.content.includes(r.phrase)).map((r) => `${s.title}: ${r.document}: ${r.phrase}`));
    expect(missing).toEqual([]);
  });

  it('sides of each contradiction state different facts in different documents', () => {
    for (const section of key.filter((s) => s.part === 'Contradictions' && s.title !== s.part)) {
      expect({ section: section.title, documents: new Set(section.rows.map((r) => r.document)).size >= 2 }).toEqual({ section: section.title, documents: true });
    }
  });

  it('documents none of the missing subjects', () => {
    for (const section of key.filter((s) => s.part === 'Missing subjects' && s.title !== s.part)) {
      const subject = section.title.replace(/^M\d+ /, '').toLowerCase();
      expect({ subject, documentedBy: corpus.filter((d) => d.name.toLowerCase().includes(subject)).map((d) => d.externalId) }).toEqual({ subject, documentedBy: [] });
    }
  });

  it('labels 40 or more queries with phrases found verbatim in existing documents', () => {
    const { queries } = loadQueries();
    expect(queries.length).toBeGreaterThanOrEqual(40);
    expect(new Set(queries.map((q) => q.id)).size).toBe(queries.length);
    const broken = queries.flatMap((q) => q.relevant.filter((l) => !byId.get(l.document)?.content.includes(l.phrase) || ![1, 2, 3].includes(l.grade)).map((l) => `${q.id}: ${l.document}: ${l.phrase}`));
    expect(broken).toEqual([]);
    for (const q of queries) expect({ id: q.id, graded3: q.relevant.some((l) => l.grade === 3) }).toEqual({ id: q.id, graded3: true });
  });
});
