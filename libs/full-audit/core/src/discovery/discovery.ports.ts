import { createHash } from 'node:crypto';
import type { LanguageModelUsage } from '@svc/kernel';
import type { ModelStatement } from './statement-extractor';

/**
 * What the model's reading of one passage is cached under (issue 24 item 3): the passage's content (its text and
 * headings, both in the prompt), and the extractor's version (model and prompt version). A rescan of an unchanged
 * passage by the same model and prompt reads the cache, not the model.
 */
export interface StatementCacheKey {
  contentHash: string;
  extractor: string;
}

export const statementCacheKey = (k: StatementCacheKey): string => `${k.extractor}|${k.contentHash}`;

/** The content hash of a passage as the extractor reads it. */
export function passageContentHash(passage: { text: string; headingPath: readonly string[] }): string {
  return createHash('sha256').update(JSON.stringify([passage.headingPath, passage.text])).digest('hex');
}

/** Statements of a cached passage are stored without their passage id (one text may be several passages). */
export type CachedStatement = Omit<ModelStatement, 'passageId'>;

/** The model's statements per passage content, per instance (its tenant's data, deleted with it). */
export abstract class StatementCache {
  /** For the keys read before, their statements (by `statementCacheKey`); the others are absent. */
  abstract get(instanceId: string, keys: StatementCacheKey[]): Promise<Map<string, CachedStatement[]>>;
  abstract put(instanceId: string, entries: (StatementCacheKey & { statements: CachedStatement[] })[], at: Date): Promise<void>;
  /** Forgets what other extractors (another model or prompt version) read; returns how many passages. */
  abstract keepOnly(instanceId: string, extractor: string): Promise<number>;
}

/** The model's verdict on one candidate pair of statements (issue 24 item 3: the judge). */
export interface DiscoveryVerdict {
  contradiction: boolean;
  /** A short title a person would write ("Return window"). */
  title: string;
  /** Why the two cannot both hold (or why they can). */
  explanation: string;
  /** What the expert must decide. */
  question: string;
}

/**
 * The model's verdicts on candidate pairs, by pair fingerprint, with the content versions of the two documents
 * then: a pair judged on unchanged documents is not sent again (an unchanged rescan costs no call).
 */
export abstract class DiscoveryVerdicts {
  abstract of(instanceId: string, fingerprints: string[]): Promise<Map<string, { verdict: DiscoveryVerdict; contentHashes: Record<string, string> }>>;
  abstract record(instanceId: string, verdicts: { fingerprint: string; verdict: DiscoveryVerdict; contentHashes: Record<string, string> }[], at: Date): Promise<void>;
  /** Forgets the verdicts on pairs of which a document has changed or gone since (they can never be used again); returns how many. */
  abstract forgetStale(instanceId: string): Promise<number>;
}

/** What the model cost a scan so far, and why it stopped calling it (null while it may call). */
export interface ScanModelUsage {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /** `budget` (FULL_AUDIT_MODEL_BUDGET_CALLS reached) or `outage` (the model failed); the passages and pairs left are the next scan's. */
  stopped: 'budget' | 'outage' | null;
}

/** The model budget of a scan, shared by every worker reading its chunks (one row per scan, updated atomically). */
export abstract class ScanModelLedger {
  /** Takes one call from the scan's budget (`budget` 0: none); false when it is spent (the scan is then marked stopped by the budget). */
  abstract reserve(scanId: string, budget: number): Promise<boolean>;
  /** Adds the tokens a call used. */
  abstract spent(scanId: string, usage: LanguageModelUsage): Promise<void>;
  /** Marks the scan's model work stopped (the first reason stays). */
  abstract stop(scanId: string, reason: 'budget' | 'outage'): Promise<void>;
  abstract usage(scanId: string): Promise<ScanModelUsage>;
  /**
   * Outside scans (the incremental rescan of a changed document), the same budget bounds each instance's calls per UTC
   * day (`day`: YYYY-MM-DD): documents arriving one by one after the first scan, the usual case, are not unbounded.
   */
  abstract reserveDay(instanceId: string, day: string, budget: number): Promise<boolean>;
  abstract spentDay(instanceId: string, day: string, usage: LanguageModelUsage): Promise<void>;
  /** Instances whose latest scan completed before `before` with its model work stopped by an outage (the sweep resumes them). */
  abstract stoppedByOutage(before: Date): Promise<string[]>;
}
