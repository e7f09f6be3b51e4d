import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Claim, ClaimContradiction, extractClaims, findContradictions, namesOf, properNames } from '@svc/text';
import { CorpusDocument, loadCorpus, ROOT } from './demo-corpus';
import { loadDemoQuestions } from './question-sets';

/**
 * The full-audit scan alone (ANALYSIS.md §4: claims with typed values and modalities, blocking by
 * attribute and shared informative stems, the rule-based judge) without retrieval or questions, over
 * the demo corpus and over a second corpus written for it (tools/eval/full-audit-corpus). Passages are
 * the documents' sections. Figures in tools/eval/README.md; the assertions guard against regressions.
 */
function scan(corpus: CorpusDocument[], language?: 'en' | 'fr'): { claims: Claim[]; findings: ClaimContradiction[] } {
  const names = properNames(corpus.map((d) => d.content));
  const claims: Claim[] = [];
  for (const doc of corpus) {
    const entity = namesOf(doc.name, names);
    doc.content.split(/\n(?=#{1,3} )/u).forEach((section, i) => claims.push(...extractClaims({ id: `${doc.externalId}#${i}`, documentId: doc.externalId, text: section, documentName: doc.name }, { language, names, entity })));
  }
  return { claims, findings: findContradictions(claims) };
}

const report = (findings: ClaimContradiction[]) => findings.map((f) => `${f.similarity.toFixed(2)} [${f.shared.join(' ')}] ${f.claims.map((c) => `${c.documentId}: ${c.modality ?? c.value.text}`).join(' <> ')}`);

function checkShape(findings: ClaimContradiction[]): void {
  // Every finding is between two documents, on one attribute, with different values.
  for (const f of findings) {
    expect(f.claims[0].documentId).not.toBe(f.claims[1].documentId);
    // One attribute; counts of two nouns both sides name ("nights on call", "on-call nights") are one.
    expect(f.claims[0].attribute.startsWith('count:') ? 'count' : f.claims[0].attribute).toBe(f.claims[1].attribute.startsWith('count:') ? 'count' : f.claims[1].attribute);
    expect(f.claims[0].value.key).not.toBe(f.claims[1].value.key);
    expect(f.explanation).toBeTruthy();
    expect(f.companionQuestions.length).toBeGreaterThan(0);
  }
}

describe('full-audit scan on the demo corpus', () => {
  it('finds planted contradictions across documents and reports every finding', () => {
    const { claims, findings } = scan(loadCorpus(), 'en');
    const planted = loadDemoQuestions().filter((q) => q.planted && q.sides);
    const found = planted.filter((q) =>
      findings.some((f) => {
        const sideOf = (d: string) => q.sides!.findIndex((side) => side.includes(d));
        const [a, b] = f.claims.map((c) => sideOf(c.documentId));
        return a >= 0 && b >= 0 && a !== b;
      }),
    );
    console.log(`demo: claims ${claims.length}; findings ${findings.length}; planted found ${found.length}/${planted.length} (${found.map((q) => q.planted).join(', ')}); missed ${planted.filter((q) => !found.includes(q)).map((q) => q.planted).join(', ')}\n${report(findings).join('\n')}`);
    expect(found.length).toBeGreaterThanOrEqual(10);
    checkShape(findings);
  });
});

interface AnswerKeyEntry {
  id: string;
  sides: [[string, string], [string, string]];
}

describe('full-audit scan on the second corpus (tools/eval/full-audit-corpus)', () => {
  const directory = join(ROOT, 'tools', 'eval', 'full-audit-corpus');
  const key = JSON.parse(readFileSync(join(directory, 'answer-key.json'), 'utf8')) as { contradictions: AnswerKeyEntry[]; nonConflicts: AnswerKeyEntry[] };
  // A finding matches an entry when its two claims hold the entry's two phrases, one each.
  const holds = (f: ClaimContradiction, [[docA, phraseA], [docB, phraseB]]: AnswerKeyEntry['sides']) => {
    const on = (c: Claim, doc: string, phrase: string) => c.documentId === doc && (c.text.includes(phrase) || phrase.includes(c.text));
    const [x, y] = f.claims;
    return (on(x, docA, phraseA) && on(y, docB, phraseB)) || (on(x, docB, phraseB) && on(y, docA, phraseA));
  };

  it('finds its planted contradictions (modality flips, dates, hours, a percentage) and none of its scoped non-conflicts', () => {
    const { claims, findings } = scan(loadCorpus(directory));
    const found = key.contradictions.filter((e) => findings.some((f) => holds(f, e.sides)));
    const raised = key.nonConflicts.filter((e) => findings.some((f) => holds(f, e.sides)));
    console.log(`second corpus: claims ${claims.length}; findings ${findings.length}; planted found ${found.length}/${key.contradictions.length} (${found.map((e) => e.id).join(', ')}); missed ${key.contradictions.filter((e) => !found.includes(e)).map((e) => e.id).join(', ')}; non-conflicts raised ${raised.length}/${key.nonConflicts.length} ${raised.map((e) => e.id).join(', ')}\n${report(findings).join('\n')}`);
    expect(raised).toEqual([]);
    expect(found.length).toBeGreaterThanOrEqual(9);
    checkShape(findings);
  });
});
