import { CLAIMS_VERSION } from '@svc/text';

/** How full-audit scans are cut into jobs and when they run: constants, configuration and the jobs' dedupe keys. */
export const FULL_AUDIT_SCAN = {
  /** Writes per transaction when a judgement is recorded (embedded mode has one connection). */
  writeBatch: 100,
  /** A judgement waits this long after a change, so a burst of changes is judged once. */
  judgeDelayMs: 500,
  /** Incremental judgements an incremental job runs at most before it leaves the rest to the next. */
  maxRounds: 5,
  /** A scan still RUNNING this long after it started is abandoned by the sweep (a chunk failed for good). */
  staleAfterHours: 6,
  /**
   * Share of the repository's documents judged incrementally since the last full judgement past which
   * the whole repository is judged again (a settle): the judge's word statistics (how common each stem
   * is) move as documents come and go, and an incremental judgement only revisits pairs touching the
   * changed documents. A small repository settles after any change.
   */
  settleShare: 0.01,
  /** A batch still unanswered this long after it was submitted is given up: the rule-based verdict stands (the API expires batches after 24 h). */
  batchExpiryHours: 25,
  /** A scan whose model work an outage stopped is resumed by a full scan this long after it completed (model-led discovery, ADR 0048). */
  outageResumeMinutes: 15,
};

/** Whether documents judged incrementally since the last full judgement call for a settle (pure). */
export function settleDue(drift: { changed: number; documents: number }): boolean {
  return drift.changed > 0 && drift.changed >= FULL_AUDIT_SCAN.settleShare * drift.documents;
}

/**
 * The band of `auto` with a neural embedder: passages on one subject and not copies of each other. The
 * local embedder's vectors are lexical (hashed words and character n-grams): they say little the words
 * do not already say, and reading them costs (tools/eval/README.md), so `auto` leaves blocking off there.
 */
export const NEURAL_VECTOR_BAND = { min: 0.6, max: 0.98 };

/** `FULL_AUDIT_VECTOR_BAND` read: `off` is null, `<min>-<max>` the band, `auto` depends on the embedder (the configuration checked the form). */
export function vectorBandOf(text: string, neuralEmbedder: boolean): { min: number; max: number } | null {
  if (text === 'auto') return neuralEmbedder ? NEURAL_VECTOR_BAND : null;
  if (text === 'off') return null;
  const cut = text.lastIndexOf('-');
  return { min: Number(text.slice(0, cut)), max: Number(text.slice(cut + 1)) };
}

/** How scans run, from configuration. */
export class FullAuditSettings {
  constructor(
    /** Hours between full rescans of an instance; 0: none on a schedule. */
    readonly rescanHours: number,
    /** Documents per extraction job: worker replicas share a full scan chunk by chunk. */
    readonly chunkDocuments = 25,
    /** Seconds after incremental judgements before a settle (FULL_AUDIT_SCAN.settleShare); 0: never. */
    readonly settleSeconds = 60,
    /**
     * New candidates of a full judgement from which the model (when it has batches) judges them in one
     * Message Batch, answered later at about half the price, instead of one call per 20; 0: never.
     */
    readonly modelBatchMin = 50,
    /** Seconds between two polls of a batch submitted to the model (the first one too). */
    readonly batchPollSeconds = 60,
    /**
     * Vector-neighbour blocking (ANALYSIS.md §4.2): claims whose nodes' vectors are at a cosine in
     * [min, max) are compared even when the words they share are too common to compare them by; null: off.
     */
    readonly vectorBand: { min: number; max: number } | null = null,
  ) {}
}

export const judgeJob = (instanceId: string) => ({ dedupeKey: `full-audit.judge:${instanceId}`, delayMs: FULL_AUDIT_SCAN.judgeDelayMs });
/** One queued full scan per instance: a change before the first scan, the schedule and a sweep on another replica ask once. */
export const scanJob = (instanceId: string) => ({ dedupeKey: `full-audit.scan:${instanceId}` });
/** One queued poll per batch. */
export const collectJob = (batchId: string, delayMs: number) => ({ dedupeKey: `full-audit.collect:${batchId}`, delayMs });
/** One queued settle per instance, after a delay: a burst of changes is settled once. */
export const settleJob = (instanceId: string, seconds: number) => ({ dedupeKey: `full-audit.settle:${instanceId}`, delayMs: seconds * 1000 });
/**
 * What the stored claims were read from: the document's content, the claim reader's version and, with
 * vector-neighbour blocking, the embedding model their signatures come from, and with model-led discovery the
 * statement extractor's model and prompt version, given only when every passage was read (a new reader, a new
 * model, blocking or discovery turned on or off, or a document the model did not finish reads it again at the
 * next full scan; offline the version is as it always was).
 */
export const claimsVersionOf = (contentHash: string, vectorModel: string | null, discovery: string | null = null): string =>
  `claims-v${CLAIMS_VERSION}${vectorModel ? `+${vectorModel}` : ''}${discovery ? `+statements=${discovery}` : ''}:${contentHash}`;

/** The content hash part of a stored claims version (`claimsVersionOf`): what a verdict on the documents depends on. */
export const contentOfVersion = (version: string): string => version.slice(version.lastIndexOf(':') + 1);
