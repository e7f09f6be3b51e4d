import { extractClaims, namesOf, properNames } from './claims';
import { findContradictions } from './find-contradictions';

let n = 0;
const claimsOf = (documentId: string, text: string, names: ReadonlySet<string> = new Set(), entity: string[] = []) => extractClaims({ id: `kn_${++n}`, documentId, text }, { language: 'en', names, entity });

describe('full-audit claims and the rule-based judge', () => {
  it('reads a claim per checkable value, with what it is about and without the value', () => {
    const [claim] = claimsOf('kd_a', '# Refund policy\n\nRefunds of an order are processed within 30 days of the request.');
    expect(claim).toMatchObject({ attribute: 'duration', value: { key: 'duration:P30D', text: '30 days' } });
    expect(claim.subject).toEqual(expect.arrayContaining(['refund', 'order', 'process', 'request']));
    expect(claimsOf('kd_a', 'Timesheets are due every Monday. How long does it take?')).toEqual([]);
  });

  it('raises two documents that give different values for the same thing, not one document, not the same value', () => {
    const claims = [
      ...claimsOf('kd_a', 'Refunds of an order are processed within 30 days of the request.'),
      ...claimsOf('kd_b', 'Refunds of an order are processed within 14 days of the request.'),
      ...claimsOf('kd_c', 'Refunds of an order are processed within two weeks of the request.'),
      ...claimsOf('kd_d', 'The canteen opens its doors 30 minutes before noon.'),
    ];
    const found = findContradictions(claims);
    expect(found.map((f) => f.claims.map((c) => c.documentId).sort())).toEqual(expect.arrayContaining([['kd_a', 'kd_b'], ['kd_a', 'kd_c']]));
    expect(found.some((f) => f.claims.map((c) => c.documentId).sort().join() === 'kd_b,kd_c')).toBe(false);
    expect(found.some((f) => f.claims.some((c) => c.documentId === 'kd_d'))).toBe(false);
    // Same input, same fingerprints.
    expect(findContradictions(claims).map((f) => f.fingerprint)).toEqual(found.map((f) => f.fingerprint));
  });

  it('keeps apart claims about different named things (two products, two cities)', () => {
    const texts = ['The Trailhead tent weighs 2.1 kg when packed.', 'The Basecamp tent weighs 7.8 kg when packed.', 'We sell the Trailhead and the Basecamp tents.'];
    const names = properNames(texts);
    expect([...names].sort()).toEqual(['basecamp', 'trailhead']);
    expect(namesOf('Trailhead 2 tent', names)).toEqual(['trailhead']);
    const claims = [...claimsOf('kd_a', texts[0], names), ...claimsOf('kd_b', texts[1], names)];
    expect(findContradictions(claims)).toEqual([]);
  });
});
