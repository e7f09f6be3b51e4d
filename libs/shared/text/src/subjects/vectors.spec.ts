import { SUBJECTS } from './constants';
import { questionTerms } from './terms';
import { cosineDistance, cosineSimilarity, dotProduct, inverseDocumentFrequency, questionVector, termStatistics, termVector, updateTermStatistics } from './vectors';

const questions = ['How long is parental leave?', 'Is parental leave paid?', 'What is the data retention schedule?', 'Who is eligible for a company car?'];
const terms = questions.map((q) => questionTerms(q));

describe('term statistics and vectors', () => {
  it('counts the questions using each stem once per question', () => {
    const stats = termStatistics([...terms, questionTerms('leave, leave and leave')]);
    expect(stats.questions).toBe(5);
    expect(stats.frequencies.leav).toBe(3);
    expect(stats.frequencies.parent).toBe(2);
  });

  it('updates the statistics as questions come and go, a copy unless in place', () => {
    const stats = termStatistics(terms.slice(0, 3));
    const added = updateTermStatistics(stats, terms[3], 1);
    expect(added).toEqual(termStatistics(terms));
    expect(stats).toEqual(termStatistics(terms.slice(0, 3)));
    expect(updateTermStatistics(added, terms[3], -1)).toEqual(stats);
    const removed = updateTermStatistics(termStatistics(terms.slice(3)), terms[3], -1);
    expect(removed).toEqual({ questions: 0, frequencies: {} });
  });

  it('smooths the inverse document frequency of a tiny set with pseudo-questions', () => {
    const stats = termStatistics(terms.slice(0, 2));
    const raw = inverseDocumentFrequency(stats, 'leav', 0) / inverseDocumentFrequency(stats, 'paid', 0);
    const smoothed = inverseDocumentFrequency(stats, 'leav') / inverseDocumentFrequency(stats, 'paid');
    expect(smoothed).toBeGreaterThan(raw);
    expect(smoothed).toBeLessThan(1);
    expect(inverseDocumentFrequency(stats, 'unseen')).toBeCloseTo(Math.log(2 + SUBJECTS.idfPrior + 1) + 1, 12);
  });

  it('makes unit vectors with sorted keys, storable as JSON; "constructor" is a stem like another', () => {
    const stats = termStatistics(terms);
    const v = termVector(terms[2], stats);
    expect(Object.keys(v)).toEqual([...Object.keys(v)].sort());
    expect(dotProduct(v, v)).toBeCloseTo(1, 12);
    expect(JSON.parse(JSON.stringify(v))).toEqual(v);
    const odd = questionVector('constructor constructors hasOwnProperty', stats);
    expect(Object.keys(odd)).toEqual(['constr', 'hasown']);
    expect(dotProduct(odd, odd)).toBeCloseTo(1, 12);
    expect(termVector([], stats)).toEqual({});
  });

  it('measures cosine distance: 0 for the same terms, 1 for none in common', () => {
    const stats = termStatistics(terms);
    const a = questionVector('How long is parental leave?', stats);
    expect(cosineDistance(a, questionVector('parental leave duration?', stats))).toBeGreaterThan(0);
    expect(cosineDistance(a, questionVector('PARENTAL LEAVE', stats))).toBeCloseTo(0, 12);
    expect(cosineDistance(a, questionVector('company car', stats))).toBe(1);
    expect(cosineSimilarity(a, {})).toBe(0);
  });
});
