import { clusterQuestions } from './clustering';
import { SUBJECTS } from './constants';
import { joinSubject, leaveSubject, nearestSubject, subjectProfile } from './subject-profile';
import { questionTerms } from './terms';
import { dotProduct, questionVector, termStatistics, TermVector } from './vectors';

const texts = ['How long is parental leave?', 'Is parental leave paid?', 'Parental leave for adoptive parents?', 'What is the data retention schedule?', 'Who is eligible for a company car?'];
const stats = termStatistics(texts.map((t) => questionTerms(t)));
const vectors = texts.map((t) => questionVector(t, stats));

function expectClose(actual: TermVector, expected: TermVector): void {
  expect(Object.keys(actual)).toEqual(Object.keys(expected));
  for (const [stem, w] of Object.entries(expected)) expect(actual[stem]).toBeCloseTo(w, 12);
}

describe('subject profiles', () => {
  it('keeps the mean of the questions vectors, updated as they join and leave', () => {
    const three = subjectProfile(vectors.slice(0, 3));
    const two = subjectProfile(vectors.slice(0, 2));
    expect(three?.size).toBe(3);
    const joined = joinSubject(two, vectors[2]);
    expectClose(joined.centroid, three?.centroid ?? {});
    const left = leaveSubject(joined, vectors[2]);
    expect(left?.size).toBe(2);
    expectClose(left?.centroid ?? {}, two?.centroid ?? {});
    expect(JSON.parse(JSON.stringify(joined))).toEqual(joined);
  });

  it('drops the terms only a leaving question had; closes the subject its last question leaves', () => {
    const both = subjectProfile([vectors[0], vectors[3]]);
    const left = both && leaveSubject(both, vectors[3]);
    expect(Object.keys(left?.centroid ?? {})).toEqual(Object.keys(vectors[0]));
    expect(leaveSubject(joinSubject(null, vectors[0]), vectors[0])).toBeNull();
    expect(subjectProfile([])).toBeNull();
  });

  it('gives the average-linkage distance: 1 − the mean similarity to the subject questions', () => {
    const profile = subjectProfile(vectors.slice(0, 3));
    const q = questionVector('parental leave for fathers', stats);
    const mean = vectors.slice(0, 3).reduce((sum, v) => sum + dotProduct(q, v), 0) / 3;
    const near = nearestSubject(q, [{ id: 'ms_1', centroid: profile?.centroid ?? {} }], 1);
    expect(near?.distance).toBeCloseTo(1 - mean, 12);
  });

  it('joins the nearest subject within the threshold, else none', () => {
    const parental = { id: 'ms_b', centroid: subjectProfile(vectors.slice(0, 3))?.centroid ?? {} };
    const retention = { id: 'ms_a', centroid: subjectProfile([vectors[3]])?.centroid ?? {} };
    const q = questionVector('Is parental leave paid for adoptive parents?', stats);
    expect(nearestSubject(q, [retention, parental])?.id).toBe('ms_b');
    const distance = nearestSubject(q, [parental], 1)?.distance ?? 1;
    expect(nearestSubject(q, [parental], distance)?.id).toBe('ms_b');
    expect(nearestSubject(q, [parental], distance - 0.01)).toBeNull();
    expect(nearestSubject(questionVector('company car fuel', stats), [retention, parental])).toBeNull();
    expect(nearestSubject({}, [retention, parental], 1)).toBeNull();
  });

  it('breaks ties by the smallest id, whatever the order', () => {
    const centroid = subjectProfile([vectors[0]])?.centroid ?? {};
    expect(nearestSubject(vectors[0], [{ id: 'ms_2', centroid }, { id: 'ms_1', centroid }])?.id).toBe('ms_1');
    expect(nearestSubject(vectors[0], [{ id: 'ms_1', centroid }, { id: 'ms_2', centroid }])?.id).toBe('ms_1');
  });

  it('agrees with the batch: a question of a cluster is within the threshold of its subject', () => {
    const questions = texts.map((text, i) => ({ id: `q${i}`, text }));
    const [parental] = clusterQuestions(questions, { threshold: SUBJECTS.threshold });
    const near = nearestSubject(questionVector('How long is parental leave?', stats), [{ id: 'ms_1', centroid: parental.profile.centroid }]);
    expect(near?.id).toBe('ms_1');
  });
});
