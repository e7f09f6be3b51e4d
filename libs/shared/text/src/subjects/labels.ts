import { SUBJECTS } from './constants';
import { SubjectTerm, termSalience } from './terms';
import { inverseDocumentFrequency, TermStatistics } from './vectors';

/** A subject's name for people and its distinctive stems. */
export interface SubjectLabel {
  /** A few words as the questions write them, capitalised: "Parental leave", "Data retention schedule". */
  label: string;
  /** The distinctive stems, best first (at most {@link SUBJECTS.subjectTerms}). */
  terms: string[];
}

interface StemScore {
  stem: string;
  /** Questions using it. */
  coverage: number;
  score: number;
}

/**
 * Names the subject of a group of questions (each given by its {@link questionTerms}) from its distinctive
 * terms. A stem scores the share of the questions that use it times its inverse document frequency — a word
 * most of the group uses and few other questions do — times its salience unless every question uses it
 * ("data" of "data retention" stays). The label takes the best stems that at least half of the questions
 * use, two at least (the best stem alone when none is), at most `SUBJECTS.labelWords`, each scoring at least
 * `SUBJECTS.labelRatio` of the best; it writes each the way the questions most often do and puts them in the
 * order the questions most often do: the writers' own phrase ("data retention schedule"), not stems
 * ("data retent schedu"). `terms` ranks every stem by score.
 */
export function subjectLabel(members: readonly (readonly SubjectTerm[])[], stats: TermStatistics): SubjectLabel {
  const scores = scoreStems(members, stats);
  if (scores.length === 0) return { label: '', terms: [] };
  const shared = scores.filter((s) => members.length === 1 || (s.coverage >= 2 && s.coverage * 2 >= members.length));
  const candidates = shared.length > 0 ? shared : scores.slice(0, 1);
  const best = candidates[0].score;
  const chosen = candidates.filter((s, i) => i < SUBJECTS.labelWords && s.score >= SUBJECTS.labelRatio * best).map((s) => s.stem);
  const model = modelQuestion(members, chosen);
  const words = phraseOrder(members, chosen, model).map((stem) => spelling(members, stem, model));
  return { label: capitalise(words.join(' ')), terms: scores.slice(0, SUBJECTS.subjectTerms).map((s) => s.stem) };
}

function scoreStems(members: readonly (readonly SubjectTerm[])[], stats: TermStatistics): StemScore[] {
  const coverage = new Map<string, number>();
  for (const terms of members) for (const s of new Set(terms.map((t) => t.stem))) coverage.set(s, (coverage.get(s) ?? 0) + 1);
  return [...coverage]
    .map(([stem, count]) => ({ stem, coverage: count, score: (count / members.length) * inverseDocumentFrequency(stats, stem) * (count === members.length ? 1 : termSalience(stem)) }))
    .sort((x, y) => y.score - x.score || compareStrings(x.stem, y.stem));
}

/**
 * The chosen stems in the order the questions write them: a stem scores a point for each question that
 * writes it before another chosen stem ("GDPR retention" twice, "retention under GDPR" once: "GDPR"
 * first); ties keep the model question's order, then the score order.
 */
function phraseOrder(members: readonly (readonly SubjectTerm[])[], chosen: string[], model: readonly SubjectTerm[]): string[] {
  const points = new Map(chosen.map((s) => [s, 0]));
  for (const terms of members) {
    const order = [...new Set(terms.map((t) => t.stem).filter((s) => points.has(s)))];
    order.forEach((s, i) => points.set(s, (points.get(s) as number) + order.length - 1 - i));
  }
  const modelOrder = [...new Set(model.map((t) => t.stem))];
  const rank = (s: string) => (modelOrder.includes(s) ? modelOrder.indexOf(s) : modelOrder.length + chosen.indexOf(s));
  return [...chosen].sort((x, y) => (points.get(y) as number) - (points.get(x) as number) || rank(x) - rank(y));
}

/** The question that uses most of the chosen stems (the shortest on a tie, then the first): its word order and spellings lead. */
function modelQuestion(members: readonly (readonly SubjectTerm[])[], chosen: string[]): readonly SubjectTerm[] {
  let model: readonly SubjectTerm[] = [];
  let modelHits = -1;
  for (const terms of members) {
    const hits = new Set(terms.filter((t) => chosen.includes(t.stem)).map((t) => t.stem)).size;
    if (hits > modelHits || (hits === modelHits && terms.length < model.length)) {
      model = terms;
      modelHits = hits;
    }
  }
  return model;
}

/**
 * How the questions write a stem: the most frequent spelling (case aside); on a tie the model question's,
 * else the shorter ("leave" before "leaves"); in lower case when any writer used it, else with the
 * capitals they all used ("GDPR").
 */
function spelling(members: readonly (readonly SubjectTerm[])[], stem: string, model: readonly SubjectTerm[]): string {
  const forms = new Map<string, { count: number; written: Map<string, number> }>();
  for (const terms of members) {
    for (const t of terms) {
      if (t.stem !== stem) continue;
      const key = t.surface.toLowerCase();
      const form = forms.get(key) ?? { count: 0, written: new Map<string, number>() };
      form.count++;
      form.written.set(t.surface, (form.written.get(t.surface) ?? 0) + 1);
      forms.set(key, form);
    }
  }
  const preferred = model.find((t) => t.stem === stem)?.surface.toLowerCase();
  const [key, form] = [...forms].sort(([a, x], [b, y]) => y.count - x.count || Number(b === preferred) - Number(a === preferred) || a.length - b.length || compareStrings(a, b))[0];
  if (form.written.has(key)) return key;
  return [...form.written].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))[0][0];
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The first letter in upper case. */
export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
