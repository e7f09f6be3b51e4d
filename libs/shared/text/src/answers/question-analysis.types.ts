import type { ValueKind } from '../values';

/**
 * The shapes of the question analysis (ANALYSIS.md §2): what retrieval hands in, what extraction finds
 * in each passage, and how the answers are grouped and decided. Pure data; the functions that produce
 * them live next to this file.
 */

/** One retrieved excerpt (a semantic node of a document), as the analysis reads it. */
export interface Passage {
  /** The semantic node id (`kn_`). */
  id: string;
  /** The document id (`kd_`). */
  documentId: string;
  text: string;
  /** The document's name, when known (a dated or versioned name tells which side is newer). */
  documentName?: string;
  /** The document's URL, when known (a name like `policy-v1` or `policy-2023` tells an old edition). */
  documentUrl?: string;
  /** ISO date of the document, when known (its own stated date, else its last update). */
  documentDate?: string;
  /** Rank in the retrieval (0 = best); used to break ties. */
  rank?: number;
}

/** Kinds of answers: the typed values of the text library, plus yes/no with modality and named values. */
export type AnswerKind = ValueKind | 'yes-no' | 'named';

/** An answer one passage gives to the question. */
export interface ExtractedAnswer {
  passageId: string;
  documentId: string;
  /** The answer span in the passage text (offsets, end exclusive): the sentence or table row that answers. */
  start: number;
  end: number;
  /** The span's text, as written (what the expert reads as `extracted_answer`). */
  text: string;
  /** The value the span states. */
  kind: AnswerKind;
  /** Canonical key: two answers with one key say the same thing ("two weeks" and "14 days"). */
  key: string;
  /** The value for people ("14 days", "150 EUR", "yes (must)"). */
  display: string;
  /** Who, where, when or under which condition the answer holds (folded words); empty = in general. */
  scope: string[];
  /** The value inside the passage (offsets, end exclusive), when the extractor located it: what an update rewrites. */
  valueStart?: number;
  valueEnd?: number;
  /** 0..1: how sure the extractor is that the span answers the question. */
  confidence: number;
}

/** Answers that say the same thing. */
export interface AnswerGroup {
  key: string;
  display: string;
  answers: ExtractedAnswer[];
}

/** Two or more answer groups for one scope, from at least two documents. */
export interface DetectedConflict {
  /** The scope the groups disagree on (empty = in general). */
  scope: string[];
  groups: AnswerGroup[];
  /** Stable over re-runs on unchanged documents: question, canonical keys and documents. */
  fingerprint: string;
  /** The document whose side is newer, when the documents' dates or names say so. */
  newestDocumentId?: string;
}

export type QuestionOutcome = 'CONFLICTS' | 'NO_CONFLICT' | 'REFUSED';

export interface QuestionAnalysis {
  outcome: QuestionOutcome;
  /** Every answer group found, conflicting or not. */
  groups: AnswerGroup[];
  conflicts: DetectedConflict[];
}

/** What to do with one document once an expert has answered (ANALYSIS.md §3). */
export type RecommendationAction = 'KEEP' | 'UPDATE' | 'DELETE';

export interface DraftRecommendation {
  documentId: string;
  /** The passage the recommendation is about. */
  passageId: string;
  action: RecommendationAction;
  /** The excerpt as it reads today. */
  excerpt: string;
  /** The excerpt rewritten to state the expert's answer (UPDATE), else null. */
  proposedText: string | null;
  reason: string;
  /** Reading plus editing time, from the model stated in `estimateEditSeconds`. */
  estimatedSeconds: number;
}
