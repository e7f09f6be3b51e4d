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

/** One of the judge's pairs a finding is made of: two statements of two documents that cannot both hold. */
export interface FindingPair {
  /** From the two normalised claims only (`claimPairFingerprint`): the same pair has it in every scan. */
  fingerprint: string;
  documentIds: [string, string];
}

/**
 * A disagreement one scan found (what the reconciliation compares with the stored conflicts): every statement
 * that contradicts another on one subject, however many documents state it (ADR 0046).
 */
export interface FullAuditFinding {
  /**
   * Its identity: the fingerprint of its first pair when it was first raised. A later scan finds it again
   * through any pair it shares with it (`pairs`), so documents may join or leave it without making it new.
   */
  fingerprint: string;
  /** The judge's pairs it is made of. */
  pairs: FindingPair[];
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
