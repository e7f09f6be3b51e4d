import { Claim, extractClaims, findContradictions, namesOf, properNames } from '@svc/text';
import { loadCorpus } from './demo-corpus';
import { loadDemoQuestions } from './question-sets';

/**
 * The full-audit scan alone (ANALYSIS.md §4, first increment: claims with typed values, blocking by
 * attribute and shared informative stems, the rule-based judge) over the demo corpus, without retrieval
 * or questions. A planted contradiction of ANSWER-KEY.md is found when a finding's two documents sit on
 * its two sides (the `sides` of tools/eval/questions.json). Passages are the documents' sections.
 * Figures in tools/eval/README.md; the assertion guards against regressions, the goal (10/12) is issue 12's.
 */
describe('full-audit scan on the demo corpus (rule-based, first increment)', () => {
  it('finds planted contradictions across documents and reports every finding', () => {
    const corpus = loadCorpus();
    const names = properNames(corpus.map((d) => d.content));
    const claims: Claim[] = [];
    for (const doc of corpus) {
      const entity = namesOf(doc.name, names);
      doc.content.split(/\n(?=#{1,3} )/u).forEach((section, i) => claims.push(...extractClaims({ id: `${doc.externalId}#${i}`, documentId: doc.externalId, text: section, documentName: doc.name }, { language: 'en', names, entity })));
    }
    const findings = findContradictions(claims);
    const planted = loadDemoQuestions().filter((q) => q.planted && q.sides);
    const found = planted.filter((q) =>
      findings.some((f) => {
        const sideOf = (d: string) => q.sides!.findIndex((side) => side.includes(d));
        const [a, b] = f.claims.map((c) => sideOf(c.documentId));
        return a >= 0 && b >= 0 && a !== b;
      }),
    );
    const lines = findings.map((f) => `${f.similarity.toFixed(2)} [${f.shared.join(' ')}] ${f.claims.map((c) => `${c.documentId}: ${c.value.text}`).join(' <> ')}`);
    console.log(`claims ${claims.length}; findings ${findings.length}; planted found ${found.length}/${planted.length} (${found.map((q) => q.planted).join(', ')}); missed ${planted.filter((q) => !found.includes(q)).map((q) => q.planted).join(', ')}\n${lines.join('\n')}`);
    expect(found.length).toBeGreaterThanOrEqual(6);
    // Every finding is between two documents, on one attribute, with different values.
    for (const f of findings) {
      expect(f.claims[0].documentId).not.toBe(f.claims[1].documentId);
      expect(f.claims[0].value.key).not.toBe(f.claims[1].value.key);
    }
  });
});
