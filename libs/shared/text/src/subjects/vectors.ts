import { SUBJECTS } from './constants';
import { questionTerms, SubjectTerm, termSalience } from './terms';

/** Stem → weight: a question's TF-IDF vector or a subject's centroid, storable as JSON (keys sorted). */
export type TermVector = Record<string, number>;

/** How many questions contain each stem, the inverse document frequency's counts; storable as JSON. */
export interface TermStatistics {
  questions: number;
  /** Stem → number of questions containing it. */
  frequencies: Record<string, number>;
}

/** A weight of a record, 0 when absent; never one of `Object.prototype`'s members ("constructor" is a stem). */
function weightOf(record: Readonly<Record<string, number>>, key: string): number {
  return Object.hasOwn(record, key) ? record[key] : 0;
}

/** The term statistics of a set of questions (each given by its {@link questionTerms}). */
export function termStatistics(questions: readonly (readonly SubjectTerm[])[]): TermStatistics {
  return questions.reduce<TermStatistics>((stats, terms) => updateTermStatistics(stats, terms, 1, true), { questions: 0, frequencies: {} });
}

/**
 * The statistics once a question is added (`change` 1) or removed (-1). A copy unless `inPlace`: the
 * service keeps one record per instance and may update it as questions come and go.
 */
export function updateTermStatistics(stats: TermStatistics, terms: readonly SubjectTerm[], change: 1 | -1, inPlace = false): TermStatistics {
  const out = inPlace ? stats : { questions: stats.questions, frequencies: { ...stats.frequencies } };
  out.questions = Math.max(0, out.questions + change);
  for (const s of new Set(terms.map((t) => t.stem))) {
    const count = weightOf(out.frequencies, s) + change;
    if (count > 0) out.frequencies[s] = count;
    else delete out.frequencies[s];
  }
  return out;
}

/**
 * Inverse document frequency, smoothed: ln((n + prior + 1) / (df + 1)) + 1, with `prior` pseudo-questions
 * that contain no term (see {@link SUBJECTS.idfPrior}). A stem no question has yet weighs most.
 */
export function inverseDocumentFrequency(stats: TermStatistics, stem: string, prior: number = SUBJECTS.idfPrior): number {
  return Math.log((stats.questions + prior + 1) / (weightOf(stats.frequencies, stem) + 1)) + 1;
}

/**
 * A question's TF-IDF vector, of unit length: term frequency (1 + ln count) times inverse document
 * frequency times {@link termSalience}. Empty for a question without content words.
 */
export function termVector(terms: readonly SubjectTerm[], stats: TermStatistics, prior: number = SUBJECTS.idfPrior): TermVector {
  const counts = new Map<string, number>();
  for (const t of terms) counts.set(t.stem, (counts.get(t.stem) ?? 0) + 1);
  const stems = [...counts.keys()].sort();
  const weights = stems.map((s) => (1 + Math.log(counts.get(s) as number)) * inverseDocumentFrequency(stats, s, prior) * termSalience(s));
  const norm = Math.sqrt(weights.reduce((sum, w) => sum + w * w, 0));
  const vector: TermVector = {};
  stems.forEach((s, i) => (vector[s] = weights[i] / norm));
  return vector;
}

/** {@link termVector} of a question's text. */
export function questionVector(question: string, stats: TermStatistics): TermVector {
  return termVector(questionTerms(question), stats);
}

/** The dot product of two term vectors. */
export function dotProduct(a: Readonly<TermVector>, b: Readonly<TermVector>): number {
  const [small, large] = Object.keys(a).length <= Object.keys(b).length ? [a, b] : [b, a];
  let sum = 0;
  for (const key of Object.keys(small)) sum += small[key] * weightOf(large, key);
  return sum;
}

/** Cosine similarity of two term vectors, 0 when one is empty. */
export function cosineSimilarity(a: Readonly<TermVector>, b: Readonly<TermVector>): number {
  const norms = Math.sqrt(dotProduct(a, a) * dotProduct(b, b));
  return norms === 0 ? 0 : dotProduct(a, b) / norms;
}

/** 1 − cosine similarity: 0 for questions with the same terms in the same proportions, 1 for none in common. */
export function cosineDistance(a: Readonly<TermVector>, b: Readonly<TermVector>): number {
  return 1 - cosineSimilarity(a, b);
}
