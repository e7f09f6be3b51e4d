import { foldedWords } from '../fold';
import { stem } from '../stem';
import { stopwordsOf } from '../stopwords';
import { profileQuestion, QuestionProfile } from './question-profile';
import { hasRelated } from './terms';
import type { Passage } from './question-analysis.types';

/** How the question analysis retrieves: hybrid candidates asked for, passages kept, at most this many per document. */
export const QUESTION_RETRIEVAL = { candidates: 60, keep: 40, perDocument: 3 };

/**
 * The passages a question is analysed on (ANALYSIS.md §2 step 2): the retrieval's candidates re-ranked
 * by how many of the question's terms each holds (with its document's name), weighted by rarity, with
 * the retrieval rank as a tie-breaker, then at most `perDocument` per document so one long document
 * cannot crowd the others out. Re-ranking first keeps a document's answering passage (a specification
 * table) ahead of its other passages that only share its vocabulary.
 */
export function selectPassages(question: string, candidates: readonly Passage[], options: Partial<typeof QUESTION_RETRIEVAL> = {}, profile: QuestionProfile = profileQuestion(question)): Passage[] {
  const { keep, perDocument } = { ...QUESTION_RETRIEVAL, ...options };
  const stemsOf = (p: Passage) =>
    new Set(
      foldedWords(`${p.documentName ?? ''} ${p.text}`)
        .filter((w) => !stopwordsOf(profile.language).has(w))
        .map((w) => stem(w, profile.language)),
    );
  const sets = candidates.map(stemsOf);
  const weights = profile.terms.map((t) => {
    const df = sets.filter((s) => hasRelated(s, t.stem)).length;
    return t.salience * Math.log(1 + (candidates.length + 1) / (df + 1)) * (t.framing ? 0.5 : 1);
  });
  const total = weights.reduce((a, b) => a + b, 0) || 1;
  const scored = candidates.map((p, i) => {
    const got = profile.terms.reduce((sum, t, j) => sum + (hasRelated(sets[i], t.stem) ? weights[j] : 0), 0);
    return { p, score: got / total + 0.2 / (1 + (p.rank ?? i) / 5), i };
  });
  scored.sort((a, b) => b.score - a.score || a.i - b.i);
  const count = new Map<string, number>();
  const out: Passage[] = [];
  for (const { p } of scored) {
    const n = count.get(p.documentId) ?? 0;
    if (n >= perDocument) continue;
    count.set(p.documentId, n + 1);
    out.push(p);
    if (out.length >= keep) break;
  }
  return out;
}
