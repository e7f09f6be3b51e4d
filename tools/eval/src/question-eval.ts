import { decideQuestion, extractAnswers, Passage, QuestionAnalysis, selectPassages } from '@svc/text';
import { addPairs, classification, confusion, PairCounts, pairCounts, pairF1 } from './question-metrics';
import { DemoQuestion, normaliseAnswer, Outcome, RamDocsItem, ramDocsExpectsConflict } from './question-sets';

/** What retrieval returned for one question (the hybrid candidates, best first): passages whose `documentId` is the document's external id. */
export interface RetrievedQuestion {
  id: string;
  question: string;
  passages: Passage[];
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/** The rule-based analysis of one question, as the service runs it (extraction, then the decision). */
export function analyse(q: RetrievedQuestion): QuestionAnalysis {
  const passages = selectPassages(q.question, q.passages);
  return decideQuestion(q.id, extractAnswers(q.question, passages), passages);
}

/** The answer group each document landed in (its surest answer's group); documents that gave no answer are absent. */
function groupOfDocument(analysis: QuestionAnalysis): Map<string, string> {
  const best = new Map<string, { group: string; confidence: number }>();
  for (const group of analysis.groups) {
    for (const a of group.answers) {
      const seen = best.get(a.documentId);
      const key = `${a.scope.join(' ')}|${group.key}`;
      if (!seen || a.confidence > seen.confidence) best.set(a.documentId, { group: key, confidence: a.confidence });
    }
  }
  return new Map([...best].map(([doc, { group }]) => [doc, group]));
}

export interface DemoQuestionResult {
  id: string;
  question: string;
  expected: Outcome;
  outcome: Outcome;
  /** For expected conflicts: whether every pair of sides sits in different groups of one conflict. */
  sidesSeparated?: boolean;
  groups: { key: string; scope: string; documents: string[] }[];
}

/**
 * Scores the demo questions: the decision against the expectation, and for each expected conflict
 * whether its sides' documents are in different answer groups of one raised conflict.
 */
export function scoreDemo(questions: DemoQuestion[], retrieved: RetrievedQuestion[]) {
  const results: DemoQuestionResult[] = questions.map((q) => {
    const r = retrieved.find((x) => x.id === q.id);
    if (!r) throw new Error(`No retrieval for ${q.id}`);
    const analysis = analyse(r);
    const result: DemoQuestionResult = {
      id: q.id,
      question: q.question,
      expected: q.expect,
      outcome: analysis.outcome,
      groups: analysis.groups.map((g) => ({ key: g.key, scope: g.answers[0].scope.join(' '), documents: [...new Set(g.answers.map((a) => a.documentId))] })),
    };
    if (q.expect === 'CONFLICTS' && q.sides) {
      const sides = q.sides;
      result.sidesSeparated = analysis.conflicts.some((c) => {
        const groupOf = (doc: string) => c.groups.findIndex((g) => g.answers.some((a) => a.documentId === doc));
        const placed = sides.map((side) => side.map(groupOf));
        // Each side's first document is in the conflict, and no two sides share a group.
        if (placed.some((p) => p[0] < 0)) return false;
        return placed.every((p, i) => placed.every((o, j) => i === j || p[0] !== o[0]));
      });
    }
    return result;
  });
  const decisions = confusion(results.map((r) => ({ expected: r.expected === 'CONFLICTS', predicted: r.outcome === 'CONFLICTS' })));
  const refusedExpected = results.filter((r) => r.expected === 'REFUSED');
  return {
    results,
    conflict_decision: { ...decisions, ...roundAll(classification(decisions)) },
    planted_raised_with_sides_separated: `${results.filter((r) => r.sidesSeparated).length}/${results.filter((r) => r.expected === 'CONFLICTS').length}`,
    false_conflicts_on_consistent_questions: results.filter((r) => r.expected === 'NO_CONFLICT' && r.outcome === 'CONFLICTS').map((r) => r.id),
    refused_accuracy: round(refusedExpected.filter((r) => r.outcome === 'REFUSED').length / Math.max(1, refusedExpected.length)),
    wrongly_refused: results.filter((r) => r.expected !== 'REFUSED' && r.outcome === 'REFUSED').map((r) => r.id),
  };
}

/**
 * Scores RAMDocs items (retrieval ids are `ramdocs-<item index>`, document external ids
 * `ramdocs-<item>-<document>`): the conflict decision against the README's expectation, and answer-group
 * pairwise F1 over each item's non-noise documents that answered, next to the two trivial baselines
 * (always conflict; one group per document, and its opposite, one group for all).
 */
export function scoreRamDocs(items: RamDocsItem[], retrieved: RetrievedQuestion[]) {
  const decisions: { expected: boolean; predicted: boolean }[] = [];
  let pairs: PairCounts = { tp: 0, fp: 0, fn: 0 };
  let allInOne: PairCounts = { tp: 0, fp: 0, fn: 0 };
  let answeredPairs: PairCounts = { tp: 0, fp: 0, fn: 0 };
  let answeredAllInOne: PairCounts = { tp: 0, fp: 0, fn: 0 };
  let answeredDocuments = 0;
  let truthDocuments = 0;
  const perItem: { id: string; question: string; expected: boolean; outcome: Outcome; groups: string[] }[] = [];
  items.forEach((item, index) => {
    const r = retrieved.find((x) => x.id === `ramdocs-${index}`);
    if (!r) throw new Error(`No retrieval for RAMDocs item ${index}`);
    const analysis = analyse(r);
    const expected = ramDocsExpectsConflict(item);
    decisions.push({ expected, predicted: analysis.outcome === 'CONFLICTS' });
    const truth = new Map<string, string>();
    item.documents.forEach((d, j) => {
      if (d.type !== 'noise') truth.set(`ramdocs-${index}-${j}`, normaliseAnswer(d.answer));
    });
    truthDocuments += truth.size;
    const predicted = groupOfDocument(analysis);
    answeredDocuments += [...truth.keys()].filter((k) => predicted.has(k)).length;
    pairs = addPairs(pairs, pairCounts(truth, predicted));
    allInOne = addPairs(allInOne, pairCounts(truth, new Map([...truth.keys()].map((k) => [k, 'one']))));
    // The same over the documents that gave an answer: how pure the groups are, unanswered documents aside.
    const answeredTruth = new Map([...truth].filter(([k]) => predicted.has(k)));
    answeredPairs = addPairs(answeredPairs, pairCounts(answeredTruth, predicted));
    answeredAllInOne = addPairs(answeredAllInOne, pairCounts(answeredTruth, new Map([...answeredTruth.keys()].map((k) => [k, 'one']))));
    perItem.push({
      id: r.id,
      question: item.question,
      expected,
      outcome: analysis.outcome,
      groups: analysis.groups.map((g) => `${g.display} [${[...new Set(g.answers.map((a) => a.documentId.replace(`ramdocs-${index}-`, '#')))].join(',')}]`),
    });
  });
  const c = confusion(decisions);
  const always = confusion(decisions.map((d) => ({ expected: d.expected, predicted: true })));
  return {
    items: items.length,
    conflicts_expected: decisions.filter((d) => d.expected).length,
    conflict_decision: { ...c, ...roundAll(classification(c)) },
    baseline_always_conflict: { ...always, ...roundAll(classification(always)) },
    answer_groups_pairwise: roundAll(pairF1(pairs)),
    baseline_one_group_per_document: roundAll(pairF1({ tp: 0, fp: 0, fn: pairs.tp + pairs.fn })),
    baseline_one_group_for_all: roundAll(pairF1(allInOne)),
    non_noise_documents_answered: `${answeredDocuments}/${truthDocuments}`,
    answered_documents_pairwise: roundAll(pairF1(answeredPairs)),
    answered_baseline_one_group_per_document: roundAll(pairF1({ tp: 0, fp: 0, fn: answeredPairs.tp + answeredPairs.fn })),
    answered_baseline_one_group_for_all: roundAll(pairF1(answeredAllInOne)),
    per_item: perItem,
  };
}

function roundAll<T extends Record<string, number>>(o: T): T {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, round(v)])) as T;
}
