import { answersAndPassages, QuestionConflict, RuleBasedRecommendationWriter } from '@svc/conflicts-core';
import { foundConflict } from '@svc/mandatory-questions-core';
import type { DraftRecommendation, ExtractedAnswer } from '@svc/text';
import { analyse, RetrievedQuestion } from './question-eval';
import { HELD_OUT } from './demo-corpus';

/** One drafted recommendation of the measure, with the conflict it answers. */
export interface MeasuredRecommendation {
  questionId: string;
  expertAnswer: string;
  draft: DraftRecommendation;
  /** For an UPDATE with proposed text: whether it differs from its excerpt only inside the answering span. */
  insideSpan?: boolean;
}

export interface RecommendationMeasure {
  corpus: string;
  /** Conflicts answered (each question raised as CONFLICTS may hold several, one per scope). */
  conflicts: number;
  update: number;
  /** UPDATEs with a proposed text. */
  rewritten: number;
  keep: number;
  delete: number;
  /** UPDATEs whose proposed text changes the excerpt outside its answering span: the measure asserts none. */
  outsideSpan: string[];
  recommendations: MeasuredRecommendation[];
}

/**
 * Recommendations on the conflicts the question analysis raises (ANALYSIS.md §3 and §8), as the service drafts
 * them: each conflict kept as the mandatory-questions context records it (`foundConflict`), read back as the
 * conflicts context hands it to its writer (`answersAndPassages`: the answer spans, without the value offsets the
 * analysis found), drafted by the rule-based writer with the value of the conflict's first answer group as the
 * expert's answer. Each UPDATE's proposed text is checked against the analysis's own answering span: the excerpt's
 * text before the span and after it must be kept verbatim.
 */
export async function measureRecommendations(corpus: string, retrieved: RetrievedQuestion[]): Promise<RecommendationMeasure> {
  const writer = new RuleBasedRecommendationWriter();
  const measure: RecommendationMeasure = { corpus, conflicts: 0, update: 0, rewritten: 0, keep: 0, delete: 0, outsideSpan: [], recommendations: [] };
  for (const q of retrieved) {
    const analysis = analyse(q);
    if (analysis.outcome !== 'CONFLICTS') continue;
    for (const detected of analysis.conflicts) {
      measure.conflicts += 1;
      const found = foundConflict(detected, q.passages.map((p) => ({ ...p, documentName: p.documentName ?? p.documentId })));
      const { answers, passages } = answersAndPassages(recorded(q, found));
      const expertAnswer = detected.groups[0].display;
      const drafts = await writer.write({ question: q.question, expertAnswer, answers, passages });
      const analysed = detected.groups.flatMap((g) => g.answers);
      for (const draft of drafts) {
        const measured: MeasuredRecommendation = { questionId: q.id, expertAnswer, draft };
        if (draft.action === 'KEEP') measure.keep += 1;
        if (draft.action === 'DELETE') measure.delete += 1;
        if (draft.action === 'UPDATE') {
          measure.update += 1;
          if (draft.proposedText !== null) {
            measure.rewritten += 1;
            measured.insideSpan = analysed.some((a) => a.passageId === draft.passageId && a.text === draft.excerpt && onlyInsideSpan(a, draft.proposedText ?? ''));
            if (!measured.insideSpan) measure.outsideSpan.push(`${q.id}: ${draft.excerpt} => ${draft.proposedText}`);
          }
        }
        measure.recommendations.push(measured);
      }
    }
  }
  return measure;
}

/** The proposed text keeps the excerpt's text before and after the answering span the analysis found (the whole excerpt when it found none). */
function onlyInsideSpan(answer: ExtractedAnswer, proposed: string): boolean {
  const from = answer.valueStart === undefined ? 0 : answer.valueStart - answer.start;
  const to = answer.valueEnd === undefined ? answer.text.length : answer.valueEnd - answer.start;
  const before = answer.text.slice(0, from);
  const after = answer.text.slice(to);
  return proposed.length >= before.length + after.length && proposed.startsWith(before) && proposed.endsWith(after);
}

/** The conflict as the conflicts context holds it once recorded (only its groups matter to the writer). */
function recorded(q: RetrievedQuestion, found: ReturnType<typeof foundConflict>): QuestionConflict {
  const now = new Date();
  const documentIds = [...new Set(found.groups.flatMap((g) => g.excerpts.map((e) => e.documentId)))].sort();
  return {
    ...found,
    id: `qc_${q.id}`,
    instanceId: 'ki_eval',
    organizationId: 'org_eval',
    questionId: q.id,
    question: q.question,
    companionQuestions: [],
    documentIds,
    state: 'OPEN',
    answer: null,
    createdAt: now,
    updatedAt: now,
    answeredAt: null,
    closedAt: null,
    closedBy: null,
    version: 1,
  };
}

/** The figures and every UPDATE as "excerpt => proposed", for a person to read. */
export function printableMeasure(m: RecommendationMeasure): string {
  const updates = m.recommendations.filter((r) => r.draft.action === 'UPDATE');
  const flat = (s: string) => s.replace(/\s+/gu, ' ').trim();
  const figures = `Recommendations, ${m.corpus}: ${m.conflicts} conflicts answered; UPDATE ${m.update}, rewritten ${m.rewritten}, KEEP ${m.keep}, DELETE ${m.delete}; changed outside the answering span ${m.outsideSpan.length}`;
  // A held-out corpus shows only its figures: its excerpts would tell whoever reads the log what it contains.
  if (HELD_OUT.includes(m.corpus)) return figures;
  return (
    `${figures}\n` +
    updates
      .map((r) => `  ${r.questionId} [expert: ${flat(r.expertAnswer)}] ${flat(r.draft.excerpt)} => ${r.draft.proposedText === null ? `(no rewrite) ${flat(r.draft.reason)}` : flat(r.draft.proposedText)}`)
      .join('\n')
  );
}
