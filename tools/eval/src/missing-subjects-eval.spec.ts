import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  clusterQuestions,
  joinSubject,
  nearestSubject,
  questionTerms,
  SUBJECTS,
  SubjectProfile,
  termVector,
  TermStatistics,
  updateTermStatistics,
} from '@svc/text';
import { DEMO_DIR } from './demo-corpus';
import { pairsOf, pairwiseScores, PairwiseScores } from './duplicates-corpus';

/**
 * Missing-subject clustering (ANALYSIS.md §5) against a labelled set of unanswered questions
 * (`missing-subjects/questions.json`, README "Missing subjects"): pairwise precision, recall and F1 over the
 * thresholds, against the trivial baselines, with the default `SUBJECTS.threshold`; the labels of the demo's
 * planted missing subjects; the incremental path (one question at a time joins the nearest subject).
 * Pure functions, no database.
 */

interface LabelledQuestion {
  id: string;
  subject: string | null;
  text: string;
}
interface LabelledSet {
  subjects: Record<string, { name: string; demo?: string }>;
  questions: LabelledQuestion[];
}

const SET: LabelledSet = JSON.parse(readFileSync(join(__dirname, '..', 'missing-subjects', 'questions.json'), 'utf8'));
const questions = SET.questions;
const subjectOf = (q: LabelledQuestion) => q.subject ?? `single:${q.id}`;
const goldGroups = [...new Set(questions.map(subjectOf))].map((s) => questions.filter((q) => subjectOf(q) === s).map((q) => q.id));
const gold = pairsOf(goldGroups);

interface Scored extends PairwiseScores {
  f1: number;
  clusters: number;
}
function score(groups: string[][]): Scored {
  const s = pairwiseScores(pairsOf(groups), gold);
  const f1 = s.precision + s.recall === 0 ? 0 : (2 * s.precision * s.recall) / (s.precision + s.recall);
  return { ...s, f1, clusters: groups.length };
}
const r3 = (x: number) => x.toFixed(3);
const row = (name: string, s: Scored) => `  ${name.padEnd(24)} P ${r3(s.precision)}  R ${r3(s.recall)}  F1 ${r3(s.f1)}  (${s.clusters} clusters, ${s.predicted} pairs, ${s.truePositives} right of ${s.expected})`;
const clustered = (threshold: number) => clusterQuestions(questions, { threshold }).map((c) => c.ids);

/** Thresholds 0.40 to 0.99 by 0.01. */
const GRID = Array.from({ length: 60 }, (_, i) => Math.round((0.4 + i / 100) * 100) / 100);

describe('missing subjects: labelled unanswered questions', () => {
  it('holds about 60 questions on 12 subjects, the demo planted subjects among them, and 8 singletons', () => {
    const key = readFileSync(join(DEMO_DIR, 'ANSWER-KEY.md'), 'utf8');
    const demo = Object.values(SET.subjects).filter((s) => s.demo);
    expect(questions.length).toBeGreaterThanOrEqual(60);
    expect(Object.keys(SET.subjects)).toHaveLength(12);
    expect(questions.filter((q) => q.subject === null)).toHaveLength(8);
    expect(new Set(questions.map((q) => q.id)).size).toBe(questions.length);
    for (const q of questions) if (q.subject !== null) expect(SET.subjects[q.subject]).toBeDefined();
    for (const code of ['M1', 'M2', 'M3', 'M4']) {
      const subject = demo.find((s) => s.demo === code);
      expect(subject && key.includes(`### ${code} ${subject.name}`)).toBe(true);
    }
  });

  it('clusters better than both baselines; the default threshold is within 0.01 of the best F1 of the curve', () => {
    const curve = GRID.map((threshold) => ({ threshold, ...score(clustered(threshold)) }));
    const best = curve.reduce((b, c) => (c.f1 > b.f1 + 1e-9 ? c : b));
    const chosen = score(clustered(SUBJECTS.threshold));
    const singletons = score(questions.map((q) => [q.id]));
    const allInOne = score([questions.map((q) => q.id)]);
    console.log(
      [
        `Missing subjects: ${questions.length} questions, ${Object.keys(SET.subjects).length} subjects + ${questions.filter((q) => !q.subject).length} singletons, ${gold.size} same-subject pairs`,
        row(`default threshold ${SUBJECTS.threshold}`, chosen),
        row('one cluster a question', singletons),
        row('all in one cluster', allInOne),
        `  best F1 of the curve at ${best.threshold}; curve (threshold: P / R / F1, clusters):`,
        ...curve.filter((c) => Math.round(c.threshold * 100) % 5 === 0 || c.threshold >= 0.8).map((c) => `    ${c.threshold.toFixed(2)}: ${r3(c.precision)} / ${r3(c.recall)} / ${r3(c.f1)}, ${c.clusters}`),
      ].join('\n'),
    );
    expect(chosen.f1).toBeGreaterThanOrEqual(best.f1 - 0.01);
    expect(chosen.precision).toBeGreaterThanOrEqual(0.75);
    expect(chosen.f1).toBeGreaterThan(Math.max(singletons.f1, allInOne.f1) + 0.3);
  });

  it('labels the demo missing subjects with words the questions use', () => {
    const clusters = clusterQuestions(questions, { threshold: SUBJECTS.threshold });
    const lines: string[] = [];
    for (const [key, subject] of Object.entries(SET.subjects).filter(([, s]) => s.demo)) {
      const ids = new Set(questions.filter((q) => q.subject === key).map((q) => q.id));
      const holding = clusters.filter((c) => c.ids.some((id) => ids.has(id))).sort((x, y) => y.ids.filter((id) => ids.has(id)).length - x.ids.filter((id) => ids.has(id)).length);
      const parts = holding.map((c) => `"${c.label}" ${c.ids.filter((id) => ids.has(id)).length}${c.ids.length > c.ids.filter((id) => ids.has(id)).length ? ` (+${c.ids.length - c.ids.filter((id) => ids.has(id)).length} other)` : ''}`);
      lines.push(`  ${subject.demo} ${subject.name.padEnd(28)} → ${parts.join(', ')}`);
      for (const cluster of holding) {
        const words = new Set(cluster.ids.flatMap((id) => questions.find((q) => q.id === id)?.text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []));
        for (const w of cluster.label.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) expect(words.has(w)).toBe(true);
        expect(cluster.label).toMatch(/^\p{Lu}/u);
      }
    }
    const others = clusters.filter((c) => c.ids.length > 1).map((c) => `"${c.label}" (${c.ids.length})`);
    console.log([`Labels at threshold ${SUBJECTS.threshold}, the demo's planted subjects:`, ...lines, `  every cluster of two or more: ${others.join(', ')}`].join('\n'));
  });

  it('gives the same clusters whatever the order of the questions', () => {
    const shuffled = [...questions].sort((a, b) => ((a.id.charCodeAt(2) * 7919) % 61) - ((b.id.charCodeAt(2) * 7919) % 61) || (a.id < b.id ? 1 : -1));
    expect(clusterQuestions(shuffled, { threshold: SUBJECTS.threshold })).toEqual(clusterQuestions(questions, { threshold: SUBJECTS.threshold }));
  });

  it('incremental: questions arriving one at a time join the nearest subject or start one', () => {
    let stats: TermStatistics = { questions: 0, frequencies: {} };
    const subjects: { id: string; ids: string[]; profile: SubjectProfile }[] = [];
    for (const q of questions) {
      const terms = questionTerms(q.text);
      stats = updateTermStatistics(stats, terms, 1);
      const vector = termVector(terms, stats);
      const near = nearestSubject(
        vector,
        subjects.map((s) => ({ id: s.id, centroid: s.profile.centroid })),
      );
      const subject = near ? subjects.find((s) => s.id === near.id) : undefined;
      if (subject) {
        subject.ids.push(q.id);
        subject.profile = joinSubject(subject.profile, vector);
      } else subjects.push({ id: `s${subjects.length + 1}`, ids: [q.id], profile: joinSubject(null, vector) });
    }
    const incremental = score(subjects.map((s) => s.ids));
    const batch = score(clustered(SUBJECTS.threshold));
    console.log(['Incremental (questions in id order, statistics growing) vs batch, default threshold:', row('incremental', incremental), row('batch', batch)].join('\n'));
    expect(incremental.f1).toBeGreaterThan(0.3);
  });
});
