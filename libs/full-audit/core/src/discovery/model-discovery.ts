import { Injectable, Logger } from '@nestjs/common';
import { Clock, LanguageModelUsage, loggableError, noteModelFallback, UnitOfWork, unusableModelReply } from '@svc/kernel';
import { Claim, ClaimContradiction, foldedWords, groupContradictions, vectorSignature } from '@svc/text';
import type { FullAuditExcerpt, FullAuditFinding } from '../full-audit-conflict';
import type { DocumentClaims, ScannedDocument } from '../full-audit.ports';
import { atVersions, DocumentNames, versionsOf } from '../findings';
import { CachedStatement, DiscoveryVerdict, DiscoveryVerdicts, passageContentHash, ScanModelLedger, StatementCache, statementCacheKey } from './discovery.ports';
import { DiscoveryCandidate, discoveryCandidates, DocumentStatements } from './discovery-candidates';
import { DISCOVERY_JUDGE_BATCH, DiscoveryJudge } from './discovery-judge';
import { extractionGroups, ExtractionPassage, ModelStatement, StatementExtractor } from './statement-extractor';

/**
 * Model-led discovery's configuration (issue 24 item 3): the model's capabilities, null offline (then nothing of
 * discovery runs and the full audit is the rule-based one, unchanged), and the model budget of one scan.
 */
export class DiscoverySettings {
  constructor(
    readonly extractor: StatementExtractor | null,
    readonly judge: DiscoveryJudge | null,
    /** Model calls one scan may make for discovery (extraction and judging); 0: no limit. FULL_AUDIT_MODEL_BUDGET_CALLS. */
    readonly budgetCalls = 0,
  ) {}

  get enabled(): boolean {
    return this.extractor !== null && this.judge !== null;
  }
}

/** Model calls of one extraction or judgement under way at once. */
export const MODEL_DISCOVERY_CONCURRENCY = 4;

/** What reading a document's passages gave: its statements, and whether every passage was read (else the next scan reads the rest). */
export interface DocumentReading {
  statements: ModelStatement[];
  complete: boolean;
}

/**
 * Model-led discovery (issue 24 item 3, ADR 0048): the model reads the statements of passages (cached by passage
 * content, model and prompt version), candidates are formed from them across documents, and the model judges
 * each candidate (verdicts remembered by pair and documents' content). Calls are taken from the scan's budget; an
 * exhausted budget or an outage stops the scan's model work cleanly, and what was not read or judged is the next
 * scan's (the cache and the verdicts make it resume where it stopped, at no cost for what was done).
 */
@Injectable()
export class ModelDiscovery {
  private readonly logger = new Logger(ModelDiscovery.name);

  constructor(
    private readonly settings: DiscoverySettings,
    private readonly cache: StatementCache,
    private readonly verdicts: DiscoveryVerdicts,
    private readonly ledger: ScanModelLedger,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
  ) {}

  /** Discovery off: for tools and tests that run the offline full audit. */
  static offline(): ModelDiscovery {
    return new ModelDiscovery(new DiscoverySettings(null, null), null as never, null as never, null as never, null as never, null as never);
  }

  get enabled(): boolean {
    return this.settings.enabled;
  }

  /** What stored claims read with discovery depend on: the extractor's model and prompt; null offline. */
  get version(): string | null {
    return this.settings.enabled ? this.settings.extractor!.version : null;
  }

  /**
   * One model call per group, MODEL_DISCOVERY_CONCURRENCY at a time (a first scan of a large repository makes hundreds
   * of calls of seconds each), each taken from the scan's budget first: once the budget refuses one, or `call` answers
   * false (an outage), no further call starts; those under way finish.
   */
  private async calls<G>(instanceId: string, scanId: string | null, groups: readonly G[], call: (group: G) => Promise<boolean>): Promise<void> {
    let next = 0;
    let stop = false;
    const worker = async () => {
      while (!stop && next < groups.length) {
        const group = groups[next++];
        if (!(await this.reserve(instanceId, scanId)) || !(await call(group))) stop = true;
      }
    };
    await Promise.all(Array.from({ length: Math.min(MODEL_DISCOVERY_CONCURRENCY, groups.length) }, worker));
  }

  /** The UTC day outside scans are budgeted by. */
  private day(): string {
    return this.clock.now().toISOString().slice(0, 10);
  }

  /** Takes one call from the scan's budget, or outside a scan from the instance's budget of the day. */
  private async reserve(instanceId: string, scanId: string | null): Promise<boolean> {
    if (scanId !== null) return this.ledger.reserve(scanId, this.settings.budgetCalls);
    const granted = await this.ledger.reserveDay(instanceId, this.day(), this.settings.budgetCalls);
    if (!granted) this.logger.warn({ instanceId, budget: this.settings.budgetCalls }, "the instance's model budget for today is spent: changed documents are left to the next full scan");
    return granted;
  }

  /** Adds a call's tokens to the scan's or the day's account. */
  private async spent(instanceId: string, scanId: string | null, usage: LanguageModelUsage): Promise<void> {
    if (scanId) await this.ledger.spent(scanId, usage);
    else await this.ledger.spentDay(instanceId, this.day(), usage);
  }

  /**
   * A failed call: a reply that stayed malformed leaves that call's passages or pairs to the next scan and the others
   * go on (true); any other failure (an outage, after the transport's retries) stops the scan's model work (false).
   */
  private async failed(scanId: string | null, error: unknown, what: object): Promise<boolean> {
    if (unusableModelReply(error)) {
      noteModelFallback('model-discovery', { name: this.settings.extractor?.name ?? 'none' }, this.logger, 'invalid-response', what);
      return true;
    }
    await this.stopped(scanId, error, what);
    return false;
  }

  private async stopped(scanId: string | null, error: unknown, what: object): Promise<void> {
    this.logger.warn({ ...what, model: this.settings.extractor?.name, error: loggableError(error) }, 'the model failed; its work for this scan stops here, the next scan resumes it');
    if (scanId) await this.uow.run(() => this.ledger.stop(scanId, 'outage'));
  }

  /**
   * After a full judgement: forgets the statements other models or prompt versions read, and the verdicts on pairs
   * whose documents have changed or gone (neither can be used again). Returns what was forgotten.
   */
  async prune(instanceId: string): Promise<{ passages: number; verdicts: number }> {
    if (!this.settings.enabled) return { passages: 0, verdicts: 0 };
    return this.uow.run(async () => ({ passages: await this.cache.keepOnly(instanceId, this.settings.extractor!.version), verdicts: await this.verdicts.forgetStale(instanceId) }));
  }

  /** The statements of each document's passages: from the cache, else from the model while the budget lasts. */
  async read(instanceId: string, scanId: string | null, documents: readonly ScannedDocument[]): Promise<Map<string, DocumentReading>> {
    const extractor = this.settings.extractor;
    const out = new Map<string, DocumentReading>();
    if (!extractor || documents.length === 0) return out;
    const keyOf = (p: ScannedDocument['passages'][number]) => ({ contentHash: passageContentHash(p), extractor: extractor.version });
    const passages = documents.flatMap((d) => d.passages.map((p) => ({ document: d, passage: p, key: keyOf(p) })));
    const known = await this.cache.get(instanceId, passages.map((p) => p.key));
    // Each content once: a passage repeated across copies is read once.
    const unread = [...new Map(passages.filter((p) => !known.has(statementCacheKey(p.key))).map((p) => [statementCacheKey(p.key), p])).values()];
    const toRead: (ExtractionPassage & { key: string; contentHash: string })[] = unread.map((p) => ({ id: statementCacheKey(p.key), key: statementCacheKey(p.key), contentHash: p.key.contentHash, documentName: p.document.name, headingPath: p.passage.headingPath, text: p.passage.text }));
    await this.calls(instanceId, scanId, extractionGroups(toRead), async (group) => {
      try {
        const result = await extractor.read(group);
        const entries = group.map((p) => ({ contentHash: p.contentHash, extractor: extractor.version, statements: (result.statements.get(p.id) ?? []).map(({ passageId: _passageId, signature: _signature, ...rest }) => rest as CachedStatement) }));
        await this.uow.run(async () => {
          await this.cache.put(instanceId, entries, this.clock.now());
          await this.spent(instanceId, scanId, result.usage);
        });
        for (const e of entries) known.set(statementCacheKey(e), e.statements);
        return true;
      } catch (error) {
        return this.failed(scanId, error, { instanceId, scan: scanId, passages: group.length, step: 'statements' });
      }
    });
    for (const d of documents) {
      let complete = true;
      const statements: ModelStatement[] = [];
      for (const p of d.passages) {
        const cached = known.get(statementCacheKey(keyOf(p)));
        // The passage's vector, as a signature: statements of neighbouring passages become candidates (not cached: it depends on the embedder).
        const signature = p.vector ? vectorSignature(p.vector) : null;
        if (!cached) complete = false;
        else statements.push(...cached.map((s) => ({ ...s, passageId: p.id, ...(signature ? { signature } : {}) })));
      }
      out.set(d.id, { statements, complete });
    }
    return out;
  }

  /**
   * The findings of the model's statements: the candidates (touching these documents for an incremental judgement),
   * each judged by the model unless judged before on the same content, the confirmed ones grouped into one finding
   * per disagreement. `pending`: candidates left unjudged (budget or outage), for the next scan.
   */
  async findings(
    instanceId: string,
    scanId: string | null,
    documents: readonly Pick<DocumentClaims, 'documentId' | 'contentHash' | 'statements'>[],
    touching: ReadonlySet<string> | null,
    namesOf: (documentIds: string[]) => Promise<DocumentNames>,
    vectorBand: { min: number; max: number } | null = null,
  ): Promise<{ findings: FullAuditFinding[]; judged: number; pending: number }> {
    const judge = this.settings.judge;
    if (!judge) return { findings: [], judged: 0, pending: 0 };
    const withStatements: DocumentStatements[] = documents.filter((d) => d.statements?.length).map((d) => ({ documentId: d.documentId, documentName: d.documentId, statements: d.statements! }));
    const candidates = discoveryCandidates(withStatements, { touching, vectorBand });
    if (candidates.length === 0) return { findings: [], judged: 0, pending: 0 };
    const names = await namesOf([...new Set(candidates.flatMap((c) => c.sides.map((s) => s.documentId)))]);
    for (const c of candidates) for (const s of c.sides) s.documentName = names.get(s.documentId)?.name ?? s.documentId;
    const versions = new Map(documents.map((d) => [d.documentId, d.contentHash]));
    const documentsOf = (c: DiscoveryCandidate) => ({ documentIds: c.sides.map((s) => s.documentId) });
    const remembered = await this.verdicts.of(instanceId, candidates.map((c) => c.fingerprint));
    const verdicts = new Map<string, DiscoveryVerdict>();
    for (const c of candidates) {
      const before = remembered.get(c.fingerprint);
      if (before && atVersions(documentsOf(c), before.contentHashes, versions)) verdicts.set(c.fingerprint, before.verdict);
    }
    const toJudge = candidates.filter((c) => !verdicts.has(c.fingerprint));
    let judged = 0;
    const groups: DiscoveryCandidate[][] = [];
    for (let i = 0; i < toJudge.length; i += DISCOVERY_JUDGE_BATCH) groups.push(toJudge.slice(i, i + DISCOVERY_JUDGE_BATCH));
    await this.calls(instanceId, scanId, groups, async (group) => {
      try {
        const result = await judge.judge(group);
        await this.uow.run(async () => {
          await this.verdicts.record(instanceId, group.filter((c) => result.verdicts.has(c.fingerprint)).map((c) => ({ fingerprint: c.fingerprint, verdict: result.verdicts.get(c.fingerprint)!, contentHashes: versionsOf(documentsOf(c), versions) })), this.clock.now());
          await this.spent(instanceId, scanId, result.usage);
        });
        for (const [fingerprint, verdict] of result.verdicts) verdicts.set(fingerprint, verdict);
        judged += result.verdicts.size;
        return true;
      } catch (error) {
        return this.failed(scanId, error, { instanceId, scan: scanId, candidates: group.length, step: 'judge' });
      }
    });
    const confirmed = candidates.filter((c) => verdicts.get(c.fingerprint)?.contradiction).map((c) => ({ candidate: c, verdict: verdicts.get(c.fingerprint)! }));
    return { findings: discoveryFindings(confirmed, names), judged, pending: candidates.filter((c) => !verdicts.has(c.fingerprint)).length };
  }
}

/** A model statement as a claim, so the disagreements are grouped as the rule-based ones are (ADR 0046). */
function claimOf(side: DiscoveryCandidate['sides'][number]): Claim {
  const s = side.statement;
  return {
    passageId: s.passageId,
    documentId: side.documentId,
    text: s.span,
    start: s.start,
    end: s.end,
    subject: foldedWords(s.subject),
    attribute: s.attribute,
    value: { key: s.valueKey, text: `${s.value}${s.unit ? ` ${s.unit}` : ''}` },
    scope: s.scope ? [s.scope] : [],
  };
}

/**
 * The findings of the pairs the model confirmed (pure): pairs sharing a statement are one disagreement, its
 * statements grouped by value; titled by the model (its closest pair's title), explained by what each document
 * says and the model's reasons, with the model's question and which documents to correct.
 */
export function discoveryFindings(confirmed: readonly { candidate: DiscoveryCandidate; verdict: DiscoveryVerdict }[], names: DocumentNames): FullAuditFinding[] {
  const verdictOf = new Map(confirmed.map((c) => [c.candidate.fingerprint, c.verdict]));
  const pairs: ClaimContradiction[] = confirmed.map(({ candidate, verdict }) => ({
    fingerprint: candidate.fingerprint,
    attribute: candidate.sides[0].statement.attribute,
    shared: foldedWords(candidate.sides[0].statement.subject),
    similarity: 1,
    claims: [claimOf(candidate.sides[0]), claimOf(candidate.sides[1])],
    subject: verdict.title,
    explanation: verdict.explanation,
    companionQuestions: [verdict.question],
  }));
  const nameOf = (id: string) => `"${names.get(id)?.name ?? id}"`;
  return groupContradictions(pairs).map((d) => {
    const excerpts: FullAuditExcerpt[] = d.claims.map((c) => {
      const at = c.text.indexOf(c.value.text);
      const document = names.get(c.documentId);
      return {
        semanticNodeId: c.passageId,
        documentId: c.documentId,
        documentName: document?.name ?? c.documentId,
        documentUrl: document?.url ?? null,
        text: c.text,
        start: at >= 0 ? at : 0,
        end: at >= 0 ? at + c.value.text.length : c.text.length,
        value: c.value.text,
        valueKey: c.value.key,
        scope: c.scope,
      };
    });
    const said = d.groups.map((g) => {
      const documents = [...new Set(g.claims.map((c) => c.documentId))];
      const quote = g.claims[0].text.replace(/\s+/gu, ' ').trim();
      return `${documents.map(nameOf).join(', ')} ${documents.length > 1 ? 'say' : 'says'} ${g.claims[0].value.text}: "${quote}"${/[.!?…]$/u.test(quote) ? '' : '.'}`;
    });
    const reasons = [...new Set(d.pairs.map((p) => verdictOf.get(p.fingerprint)!.explanation))];
    const questions = [...new Set(d.pairs.map((p) => verdictOf.get(p.fingerprint)!.question).filter((q) => q.length > 0))];
    const documentIds = [...new Set(excerpts.map((e) => e.documentId))].sort();
    const which =
      documentIds.length === 2
        ? `Is one of the two documents (${documentIds.map(nameOf).join(', ')}) out of date or limited to another case, and which one applies?`
        : `Are some of these documents (${documentIds.map(nameOf).join(', ')}) out of date or limited to another case, and which ones apply?`;
    return {
      fingerprint: d.fingerprint,
      pairs: d.pairs.map((p) => ({ fingerprint: p.fingerprint, documentIds: [p.claims[0].documentId, p.claims[1].documentId] as [string, string] })),
      attribute: d.attribute,
      subject: verdictOf.get(d.pairs[0].fingerprint)!.title,
      explanation: `${said.join(' ')} ${reasons.join(' ')}`,
      compagnonQuestions: [...questions.slice(0, 2), which],
      excerpts,
      documentIds,
    };
  });
}
