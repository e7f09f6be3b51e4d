import { Injectable } from '@nestjs/common';
import type { ExtractedAnswer, Passage } from '@svc/text';
import { AuditInstanceAccess, ReadDocumentNames } from '@svc/workspace-core';
import type { ConflictExcerpt, QuestionConflict, Recommendation } from './question-conflict';
import { RecommendationRepository, Visible } from './conflicts.ports';

export interface DocumentRef {
  document_id: string;
  document_name: string;
  document_url: string | null;
}

export interface RecommendationView extends DocumentRef {
  id: string;
  conflict_id: string;
  action: Recommendation['action'];
  excerpt: string;
  proposed_text: string | null;
  reason: string;
  estimated_seconds: number;
}

export interface ExcerptView extends DocumentRef {
  semantic_node_id: string;
  document_date: string | null;
  text: string;
  extracted_answer: string;
  answer_start: number;
  answer_end: number;
  normalized_value: string;
  scope: string[];
}

export interface QuestionConflictView {
  id: string;
  instance_id: string;
  question_id: string;
  question: string;
  state: QuestionConflict['state'];
  answer: string | null;
  scope: string[];
  answer_groups: { answer: string; key: string; excerpts: ExcerptView[] }[];
  documents: (DocumentRef & { is_newest: boolean })[];
  compagnon_questions: string[];
  recommendations: RecommendationView[];
  created_at: string;
  updated_at: string;
  answered_at: string | null;
  closed_at: string | null;
  version: number;
}

/** Names and URLs as the repository gives them now; the ones stored at analysis time when a document is gone. */
type Names = Map<string, { name: string; url: string | null }>;

function ref(documentId: string, names: Names, fallback?: { documentName: string; documentUrl: string | null }): DocumentRef {
  const found = names.get(documentId);
  return { document_id: documentId, document_name: found?.name ?? fallback?.documentName ?? documentId, document_url: found ? found.url : (fallback?.documentUrl ?? null) };
}

export function recommendationView(r: Recommendation, names: Names): RecommendationView {
  return { id: r.id, conflict_id: r.conflictId, ...ref(r.documentId, names), action: r.action, excerpt: r.excerpt, proposed_text: r.proposedText, reason: r.reason, estimated_seconds: r.estimatedSeconds };
}

export function isVisible(conflict: Pick<QuestionConflict, 'documentIds'>, visible: Visible): boolean {
  return visible === 'all' || conflict.documentIds.some((id) => visible.includes(id));
}

/** The extracted answers and passages of a conflict, as the analysis saw them (for recommendations). */
export function answersAndPassages(conflict: QuestionConflict): { answers: ExtractedAnswer[]; passages: Passage[] } {
  const excerpts: ConflictExcerpt[] = conflict.groups.flatMap((g) => g.excerpts);
  const passages = new Map<string, Passage>();
  for (const e of excerpts) passages.set(e.semanticNodeId, { id: e.semanticNodeId, documentId: e.documentId, text: e.text, documentName: e.documentName, ...(e.documentDate ? { documentDate: e.documentDate } : {}) });
  const answers = excerpts.map((e) => ({
    passageId: e.semanticNodeId,
    documentId: e.documentId,
    start: e.spanStart,
    end: e.spanEnd,
    text: e.extractedAnswer,
    kind: e.kind,
    key: e.normalizedKey,
    display: e.normalizedValue,
    scope: e.scope,
    confidence: e.confidence,
  }));
  return { answers, passages: [...passages.values()] };
}

/** Builds the views clients read: documents hydrated with their current name and URL, recommendations of visible documents. */
@Injectable()
export class ConflictViews {
  constructor(
    private readonly documentNames: ReadDocumentNames,
    private readonly recommendations: RecommendationRepository,
  ) {}

  names(access: AuditInstanceAccess, documentIds: string[]): Promise<Names> {
    return this.documentNames.execute(access, documentIds);
  }

  async views(access: AuditInstanceAccess, conflicts: QuestionConflict[], visible: Visible, withRecommendations: Recommendation[][] | null = null): Promise<QuestionConflictView[]> {
    const names = await this.names(access, conflicts.flatMap((c) => c.documentIds));
    const recommendations = withRecommendations ?? (await Promise.all(conflicts.map((c) => this.recommendations.ofConflict(c.id, c.state === 'MANAGED' ? ['PENDING'] : ['DRAFT']))));
    return conflicts.map((c, i) => conflictView(c, names, recommendations[i].filter((r) => visible === 'all' || visible.includes(r.documentId))));
  }
}

export function conflictView(c: QuestionConflict, names: Names, recommendations: Recommendation[]): QuestionConflictView {
  const firstExcerpt = new Map<string, ConflictExcerpt>();
  for (const e of c.groups.flatMap((g) => g.excerpts)) if (!firstExcerpt.has(e.documentId)) firstExcerpt.set(e.documentId, e);
  return {
    id: c.id,
    instance_id: c.instanceId,
    question_id: c.questionId,
    question: c.question,
    state: c.state,
    answer: c.answer,
    scope: c.scope,
    answer_groups: c.groups.map((g) => ({
      answer: g.display,
      key: g.key,
      excerpts: g.excerpts.map((e) => ({
        semantic_node_id: e.semanticNodeId,
        ...ref(e.documentId, names, e),
        document_date: e.documentDate,
        text: e.text,
        extracted_answer: e.extractedAnswer,
        answer_start: e.spanStart,
        answer_end: e.spanEnd,
        normalized_value: e.normalizedValue,
        scope: e.scope,
      })),
    })),
    documents: c.documentIds.map((id) => ({ ...ref(id, names, firstExcerpt.get(id)), is_newest: c.newestDocumentId === id })),
    compagnon_questions: c.companionQuestions,
    recommendations: recommendations.map((r) => recommendationView(r, names)),
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
    answered_at: c.answeredAt?.toISOString() ?? null,
    closed_at: c.closedAt?.toISOString() ?? null,
    version: c.version,
  };
}
