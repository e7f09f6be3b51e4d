import { Injectable } from '@nestjs/common';
import { SUPERSEDED_ATTRIBUTE, supersededOf } from '@svc/text';
import { AuditInstanceAccess, ReadDocumentNames } from '@svc/workspace-core';
import { CompanionRecommendation, FullAuditConflict, isImportant } from './full-audit-conflict';
import type { Visible } from './full-audit.ports';

interface DocumentRef {
  document_id: string;
  document_name: string;
  document_url: string | null;
}

export interface FullAuditExcerptView extends DocumentRef {
  semantic_node_id: string;
  text: string;
  value: string;
  value_start: number;
  value_end: number;
  scope: string[];
}

export interface CompanionRecommendationView extends DocumentRef {
  id: string;
  action: CompanionRecommendation['action'];
  excerpt: string;
  proposed_text: string | null;
  reason: string;
  estimated_seconds: number;
}

export interface FullAuditConflictView {
  id: string;
  instance_id: string;
  state: FullAuditConflict['state'];
  subject: string;
  explanation: string;
  attribute: string;
  documents: DocumentRef[];
  excerpts: FullAuditExcerptView[];
  compagnon_questions: string[];
  linked_questions: { question_id: string; question: string }[];
  is_important: boolean;
  answer: string | null;
  compagnon_recommendations: CompanionRecommendationView[];
  created_at: string;
  updated_at: string;
  last_seen_at: string;
  answered_at: string | null;
  version: number;
}

type Names = Map<string, { name: string; url: string | null }>;

function ref(documentId: string, names: Names, fallback?: { documentName: string; documentUrl: string | null }): DocumentRef {
  const found = names.get(documentId);
  return { document_id: documentId, document_name: found?.name ?? fallback?.documentName ?? documentId, document_url: found ? found.url : (fallback?.documentUrl ?? null) };
}

export function isVisibleFullAudit(conflict: Pick<FullAuditConflict, 'documentIds'>, visible: Visible): boolean {
  return visible === 'all' || conflict.documentIds.some((id) => visible.includes(id));
}

export function recommendationViewOf(r: CompanionRecommendation, names: Names): CompanionRecommendationView {
  return { id: r.id, ...ref(r.documentId, names), action: r.action, excerpt: r.excerpt, proposed_text: r.proposedText, reason: r.reason, estimated_seconds: r.estimatedSeconds };
}

export function fullAuditConflictView(c: FullAuditConflict, names: Names, visible: Visible): FullAuditConflictView {
  const firstExcerpt = new Map(c.excerpts.map((e) => [e.documentId, e]));
  return {
    id: c.id,
    instance_id: c.instanceId,
    state: c.state,
    subject: c.subject,
    explanation: c.explanation,
    // A superseded version's finding is of kind 'superseded'; which document is the older one is internal.
    attribute: supersededOf(c.attribute) ? SUPERSEDED_ATTRIBUTE : c.attribute,
    documents: c.documentIds.map((id) => ref(id, names, firstExcerpt.get(id))),
    excerpts: c.excerpts.map((e) => ({ semantic_node_id: e.semanticNodeId, ...ref(e.documentId, names, e), text: e.text, value: e.value, value_start: e.start, value_end: e.end, scope: e.scope })),
    compagnon_questions: c.compagnonQuestions,
    linked_questions: c.linkedQuestions.map((q) => ({ question_id: q.id, question: q.question })),
    is_important: isImportant(c),
    answer: c.answer,
    compagnon_recommendations: c.compagnonRecommendations.filter((r) => visible === 'all' || visible.includes(r.documentId)).map((r) => recommendationViewOf(r, names)),
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
    last_seen_at: c.lastSeenAt.toISOString(),
    answered_at: c.answeredAt?.toISOString() ?? null,
    version: c.version,
  };
}

/** Names and URLs as the repository gives them now; the ones stored at scan time when a document is gone. */
@Injectable()
export class FullAuditViews {
  constructor(private readonly documentNames: ReadDocumentNames) {}

  names(access: AuditInstanceAccess, documentIds: string[]): Promise<Names> {
    return this.documentNames.execute(access, documentIds);
  }

  async views(access: AuditInstanceAccess, conflicts: FullAuditConflict[], visible: Visible): Promise<FullAuditConflictView[]> {
    const names = await this.names(access, conflicts.flatMap((c) => c.documentIds));
    return conflicts.map((c) => fullAuditConflictView(c, names, visible));
  }
}
