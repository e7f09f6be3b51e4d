import { SUBJECTS } from './constants';
import { dotProduct, TermVector } from './vectors';

/**
 * What a subject keeps of its questions, storable as JSON: how many there are and the mean of their unit
 * TF-IDF vectors. With unit vectors, the mean cosine similarity between a question and the subject's
 * questions is the question's dot product with the centroid: the average-linkage distance the batch
 * clustering merges by, computed without the questions.
 */
export interface SubjectProfile {
  size: number;
  centroid: TermVector;
}

/** A stored subject as {@link nearestSubject} reads it. */
export interface StoredSubject {
  id: string;
  centroid: TermVector;
}

/** Weights this close to 0 after a question leaves are rounding left-overs, not terms. */
const EPSILON = 1e-12;

/** The profile of a group of questions, from their vectors ({@link termVector}). */
export function subjectProfile(vectors: readonly TermVector[]): SubjectProfile | null {
  return vectors.reduce<SubjectProfile | null>((profile, v) => joinSubject(profile, v), null);
}

/** The profile once a question joins (a new subject when `profile` is null). */
export function joinSubject(profile: SubjectProfile | null, vector: TermVector): SubjectProfile {
  return reweigh(profile ?? { size: 0, centroid: {} }, vector, 1);
}

/**
 * The profile once a question leaves (the repository now answers it): `vector` must be the one it
 * joined with, which the service stores beside the question. Null when no question is left: the subject
 * is then closed.
 */
export function leaveSubject(profile: SubjectProfile, vector: TermVector): SubjectProfile | null {
  return profile.size <= 1 ? null : reweigh(profile, vector, -1);
}

function reweigh(profile: SubjectProfile, vector: TermVector, change: 1 | -1): SubjectProfile {
  const size = profile.size + change;
  const sums = new Map<string, number>();
  for (const [stem, w] of Object.entries(profile.centroid)) sums.set(stem, w * profile.size);
  for (const [stem, w] of Object.entries(vector)) sums.set(stem, (sums.get(stem) ?? 0) + change * w);
  const centroid: TermVector = {};
  for (const stem of [...sums.keys()].sort()) {
    const mean = (sums.get(stem) as number) / size;
    if (mean > EPSILON) centroid[stem] = mean;
  }
  return { size, centroid };
}

/** The subject a question joins and its average-linkage distance to it. */
export interface NearestSubject {
  id: string;
  distance: number;
}

/**
 * The subject a new unanswered question joins: the one at the smallest average-linkage distance (1 − the
 * question's unit vector · the centroid), if it is within `threshold`; null to start a new subject. Ties go
 * to the smallest id. A question without content words joins none.
 */
export function nearestSubject(vector: TermVector, subjects: readonly StoredSubject[], threshold: number = SUBJECTS.threshold): NearestSubject | null {
  let best: NearestSubject | null = null;
  for (const s of subjects) {
    const distance = 1 - dotProduct(vector, s.centroid);
    if (distance >= 1 || distance > threshold + EPSILON) continue;
    if (!best || distance < best.distance - EPSILON || (Math.abs(distance - best.distance) <= EPSILON && s.id < best.id)) best = { id: s.id, distance };
  }
  return best;
}
