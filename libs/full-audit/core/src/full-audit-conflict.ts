export const FULL_AUDIT_STATES = ['DETECTED', 'REDETECTED', 'MANAGED', 'IGNORED', 'DISAPPEARED'] as const;
export type FullAuditState = (typeof FULL_AUDIT_STATES)[number];

/** One side of a full-audit conflict: the statement of one passage, and the value it gives. */
export interface FullAuditExcerpt {
  semanticNodeId: string;
  documentId: string;
  /** As the repository named it at scan time; reads show its current name. */
  documentName: string;
  documentUrl: string | null;
  /** The passage (semantic node) text, and the statement's offsets in it (end exclusive). */
  text: string;
  start: number;
  end: number;
  /** The value as written ("14 days", "must not") and its canonical key. */
  value: string;
  valueKey: string;
  /** What the statement is limited to (folded names or qualifiers); empty = in general. */
  scope: string[];
}

/** A contradiction one scan found (what the reconciliation compares with the stored conflicts). */
export interface FullAuditFinding {
  /** From the two normalised claims only: the same contradiction has the same fingerprint in every scan. */
  fingerprint: string;
  /** What kind of value they disagree on ("duration", "amount:EUR", "modality"). */
  attribute: string;
  /** For people: what the documents disagree about, and how. */
  subject: string;
  explanation: string;
  /** What the expert must decide. */
  compagnonQuestions: string[];
  excerpts: FullAuditExcerpt[];
  documentIds: string[];
}

export interface LinkedQuestion {
  id: string;
  question: string;
}

/** A recommendation drafted from the expert's answer, per document (BEHAVIOUR.md §5's item). */
export interface CompanionRecommendation {
  id: string;
  documentId: string;
  action: 'KEEP' | 'UPDATE' | 'DELETE';
  excerpt: string;
  proposedText: string | null;
  reason: string;
  estimatedSeconds: number;
}

export interface FullAuditConflict extends FullAuditFinding {
  id: string;
  instanceId: string;
  organizationId: string;
  state: FullAuditState;
  /** Mandatory questions whose excerpts overlap this conflict's (refreshed by every scan that finds it). */
  linkedQuestions: LinkedQuestion[];
  answer: string | null;
  compagnonRecommendations: CompanionRecommendation[];
  createdAt: Date;
  updatedAt: Date;
  /** The last scan that found it. */
  lastSeenAt: Date;
  answeredAt: Date | null;
  /** When it was last set MANAGED (a later change of its documents that still contradicts brings it back). */
  managedAt: Date | null;
  /** A MANAGED conflict a scan no longer found: when it went away (found again later: REDETECTED). */
  absentSince: Date | null;
  version: number;
}

export function isImportant(conflict: Pick<FullAuditConflict, 'linkedQuestions'>): boolean {
  return conflict.linkedQuestions.length > 0;
}
