/**
 * The missing-subject algorithms' parameters (ANALYSIS.md §5), measured in tools/eval (README "Missing
 * subjects"). Subject centroids are stored: a change to the term extraction or the weighting must bump
 * `version`, and the stored centroids be recomputed by clustering the open questions again.
 */
export const SUBJECTS = {
  /** Version of the stored representation (question terms, TF-IDF weighting, centroids). */
  version: 1,
  /**
   * Default cosine distance up to which two groups of questions are one subject (average linkage). On the
   * labelled set (65 questions, 12 subjects) pairwise F1 is 0.494 at 0.84–0.86 with precision 0.79, and at
   * most 0.500 (0.91–0.92) with precision 0.62: the lower plateau, since two subjects merged make one
   * companion document mix them, worse than one subject split in two.
   */
  threshold: 0.85,
  /**
   * Pseudo-questions that contain none of the terms, added to the question count of the inverse document
   * frequency: in a set of five questions a subject's own word is frequent because the subject is, and
   * without them it would weigh least.
   */
  idfPrior: 10,
  /** Letters of a Snowball stem kept (see `subjectStem`). */
  stemLength: 6,
  /** Weight of a generic word's term relative to others (see `termSalience`). */
  genericWeight: 0.5,
  /** Words of a label at most ("Data retention schedule"). */
  labelWords: 3,
  /** A term joins the label when its score reaches this share of the best term's. */
  labelRatio: 0.5,
  /** Distinctive terms kept with a subject, best first. */
  subjectTerms: 5,
  /** Unanswered searches: what makes one worth a subject (see `denoiseSearches`). */
  searches: {
    /** Kept when this many distinct users asked it... */
    minUsers: 2,
    /** ...or when it was asked this many times (retries apart). */
    minRepeats: 3,
    /** Only searches this recent count (milliseconds before `now`): 90 days. */
    windowMs: 90 * 24 * 3600 * 1000,
    /** One user asking the same thing again within this time is a retry, counted once: 10 minutes. */
    retryMs: 10 * 60 * 1000,
    /** Fewer letters than this is a test or a slip of the keyboard. */
    minLetters: 3,
  },
} as const;
