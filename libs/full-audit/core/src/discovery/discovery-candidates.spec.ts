import { vectorSignature } from '@svc/text';
import { discoveryCandidates, DocumentStatements } from './discovery-candidates';
import type { ModelStatement } from './statement-extractor';
import { statementValueKey } from './statement-extractor';

const st = (over: Partial<ModelStatement> & Pick<ModelStatement, 'subject' | 'value'>): ModelStatement => {
  const base = { passageId: 'kn', attribute: 'duration', unit: null, scope: null, condition: null, modality: 'is' as const, effectiveDate: null, span: `${over.subject} is ${over.value}.`, start: 0, end: 10, ...over };
  return { ...base, valueKey: over.valueKey ?? statementValueKey(base.value, base.unit, base.span) };
};
const doc = (documentId: string, ...statements: ModelStatement[]): DocumentStatements => ({ documentId, documentName: `${documentId}.md`, statements });

describe('discoveryCandidates', () => {
  it('pairs statements of two documents on one subject and attribute whose values differ; the same value written otherwise is no candidate', () => {
    const candidates = discoveryCandidates([
      doc('kd_a', st({ subject: 'return window', value: '30 days' }), st({ subject: 'store closing time', attribute: 'time', value: '2 p.m.' })),
      doc('kd_b', st({ subject: 'return window', value: '60 days' }), st({ subject: 'store closing time', attribute: 'time', value: '14:00' })),
    ]);
    expect(candidates).toHaveLength(1);
    expect(candidates[0].sides.map((s) => [s.documentId, s.statement.value])).toEqual(expect.arrayContaining([['kd_a', '30 days'], ['kd_b', '60 days']]));
  });

  it('no candidate within one document, across attributes or subjects, or between a general rule and a scoped case or another condition', () => {
    expect(
      discoveryCandidates([
        doc('kd_a', st({ subject: 'return window', value: '30 days' }), st({ subject: 'return window', value: '60 days' })),
        doc('kd_b', st({ subject: 'return window', attribute: 'amount', value: '60 EUR' }), st({ subject: 'delivery time', value: '5 days' })),
        doc('kd_c', st({ subject: 'return window', value: '90 days', scope: 'premium customers' }), st({ subject: 'return window', value: '10 days', condition: 'if the item is damaged' })),
      ]),
    ).toEqual([]);
  });

  it('meets a subject named more narrowly through its head noun, and a rule against its opposite', () => {
    const candidates = discoveryCandidates([
      doc('kd_a', st({ subject: 'return window', value: '30 days' }), st({ subject: 'remote work approval', attribute: 'rule', value: 'manager approval', modality: 'must' })),
      doc('kd_b', st({ subject: 'product return window', value: '45 days' }), st({ subject: 'remote work approval', attribute: 'rule', value: 'manager approval', modality: 'need_not' })),
    ]);
    expect(candidates.map((c) => c.sides.map((s) => s.statement.value).sort())).toEqual(expect.arrayContaining([['30 days', '45 days'], ['manager approval', 'manager approval']]));
    expect(candidates).toHaveLength(2);
  });

  it('an incremental judgement gets only the pairs touching its documents; a pair keeps its fingerprint whatever the order or other documents', () => {
    const a = doc('kd_a', st({ subject: 'return window', value: '30 days' }));
    const b = doc('kd_b', st({ subject: 'return window', value: '60 days' }));
    const c = doc('kd_c', st({ subject: 'return window', value: '90 days' }));
    const all = discoveryCandidates([a, b, c]);
    expect(all).toHaveLength(3);
    const touching = discoveryCandidates([c, b, a], { touching: new Set(['kd_c']) });
    expect(touching).toHaveLength(2);
    expect(touching.every((p) => p.sides.some((s) => s.documentId === 'kd_c'))).toBe(true);
    expect(discoveryCandidates([b, a])[0].fingerprint).toBe(all.find((p) => p.sides.every((s) => s.documentId !== 'kd_c'))!.fingerprint);
  });

  it('meets full-text neighbours (a subject worded otherwise), not subjects sharing one word of several', () => {
    const pairs = (a: string, b: string) => discoveryCandidates([doc('kd_a', st({ subject: a, attribute: 'approver', value: 'Finance team' })), doc('kd_b', st({ subject: b, attribute: 'approver', value: 'line manager' }))]).length;
    expect(pairs('return window', 'window for returns')).toBe(1);
    expect(pairs('expense claim approval', 'leave approval')).toBe(0);
  });

  it('meets statements of neighbouring passages (vector signatures within the band) whatever their subjects say, not distant ones', () => {
    const vector = (angle: number) => Array.from({ length: 64 }, (_, i) => Math.cos(angle + i) + (i === 0 ? 3 : 0));
    const near = [vectorSignature(vector(0))!, vectorSignature(vector(0.15))!];
    const signed = (documentId: string, subject: string, value: string, signature: string) => doc(documentId, { ...st({ subject, attribute: 'approver', value }), signature });
    const band = { min: 0.6, max: 0.999 };
    const candidates = (signatures: string[], vectorBand: { min: number; max: number } | null) =>
      discoveryCandidates([signed('kd_a', 'expense sign-off', 'Finance team', signatures[0]), signed('kd_b', 'who validates claims', 'line manager', signatures[1])], { vectorBand }).length;
    expect(candidates(near, band)).toBe(1);
    expect(candidates(near, null)).toBe(0);
    expect(candidates([near[0], vectorSignature(Array.from({ length: 64 }, (_, i) => (i % 2 ? -1 : 1) * Math.sin(i * 7)))!], band)).toBe(0);
  });
});
