import { Injectable, Logger } from '@nestjs/common';
import { DocumentChangedPayload, FullAuditCollectPayload, FullAuditExtractPayload, FullAuditJudgePayload, FullAuditScanPayload, JOB_NAMES } from '@svc/contracts';
import { ActivityLog, Clock, DomainError, IdGenerator, JobQueue, loggableError, UnitOfWork } from '@svc/kernel';
import { CLAIM_JUDGE, CLAIMS_VERSION, findContradictions, informativeLimit } from '@svc/text';
import { GetInstanceStep } from '@svc/workspace-core';
import type { FullAuditConflict, FullAuditFinding } from './full-audit-conflict';
import { blockKey, ClaimBlock, ClaimStore, DocumentClaims, FullAuditChanges, FullAuditConflictRepository, ModelBatchStore, ModelRejections, QuestionLinks, ScanSource, ScanStore } from './full-audit.ports';
import { changedAtOf, claimsOfDocument, DocumentNames, findingOf } from './findings';
import { ClaimJudge } from './judge/claim-judge';
import { planScan, ScanStep } from './scan-plan';

/** How scans are cut into jobs. */
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
};

/** Whether documents judged incrementally since the last full judgement call for a settle (pure). */
export function settleDue(drift: { changed: number; documents: number }): boolean {
  return drift.changed > 0 && drift.changed >= FULL_AUDIT_SCAN.settleShare * drift.documents;
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
  ) {}
}

const judgeJob = (instanceId: string) => ({ dedupeKey: `full-audit.judge:${instanceId}`, delayMs: FULL_AUDIT_SCAN.judgeDelayMs });
/** One queued full scan per instance: a change before the first scan, the schedule and a sweep on another replica ask once. */
const scanJob = (instanceId: string) => ({ dedupeKey: `full-audit.scan:${instanceId}` });
/** One queued poll per batch. */
const collectJob = (batchId: string, delayMs: number) => ({ dedupeKey: `full-audit.collect:${batchId}`, delayMs });
/** One queued settle per instance, after a delay: a burst of changes is settled once. */
const settleJob = (instanceId: string, seconds: number) => ({ dedupeKey: `full-audit.settle:${instanceId}`, delayMs: seconds * 1000 });
/** What the stored claims were read from: the document's content and the claim reader's version (a new reader reads every document again). */
const claimsVersionOf = (contentHash: string) => `claims-v${CLAIMS_VERSION}:${contentHash}`;
/** Let the event loop serve requests between two documents (claim extraction is CPU work). */
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A full scan (job `full-audit.scan`): in RUNNING_PHASE, unless one runs already, records the scan and
 * queues the extraction of every live document in chunks; the last chunk queues the judgement. A
 * settle (reason `settle`) records a scan of no chunk and queues the judgement of the stored claims at
 * once, unless a full judgement ran since the changes that called for it.
 * Outcome: `not_running`, `already_running <id>`, `started <id> <documents> <chunks>`,
 * `settling <id> <documents>` or `settled`.
 */
@Injectable()
export class StartFullAuditScan {
  constructor(
    private readonly steps: GetInstanceStep,
    private readonly scans: ScanStore,
    private readonly source: ScanSource,
    private readonly claims: ClaimStore,
    private readonly settings: FullAuditSettings,
    private readonly jobs: JobQueue,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
  ) {}

  async execute(payload: FullAuditScanPayload): Promise<string> {
    if ((await this.steps.execute(payload.instanceId)) !== 'RUNNING_PHASE') return 'not_running';
    const settle = payload.reason === 'settle';
    // A settle judges the stored claims again and reads no document; a full judgement since has settled them already.
    const drift = settle ? await this.claims.driftOf(payload.instanceId) : null;
    if (drift && drift.changed === 0) return 'settled';
    const documentIds = drift ? [] : await this.source.liveIds(payload.instanceId);
    const chunks: string[][] = [];
    for (let i = 0; i < documentIds.length; i += this.settings.chunkDocuments) chunks.push(documentIds.slice(i, i + this.settings.chunkDocuments));
    return this.uow.run(async () => {
      const { started, scan } = await this.scans.start({
        id: this.ids.next('fas_'),
        instanceId: payload.instanceId,
        reason: payload.reason ?? 'instance',
        state: 'RUNNING',
        total: drift ? drift.documents : documentIds.length,
        chunks: chunks.length,
        startedAt: this.clock.now(),
        finishedAt: null,
        findings: null,
      });
      if (!started) return `already_running ${scan.id}`;
      if (settle) {
        await this.jobs.enqueue(JOB_NAMES.fullAuditJudge, { instanceId: payload.instanceId }, judgeJob(payload.instanceId));
        return `settling ${scan.id} ${drift!.documents}`;
      }
      for (const [chunk, ids] of chunks.entries()) await this.jobs.enqueue(JOB_NAMES.fullAuditExtract, { instanceId: payload.instanceId, scan: { id: scan.id, chunk }, documentIds: ids });
      if (chunks.length === 0) await this.jobs.enqueue(JOB_NAMES.fullAuditJudge, { instanceId: payload.instanceId }, judgeJob(payload.instanceId));
      return `started ${scan.id} ${documentIds.length} ${chunks.length}`;
    });
  }
}

/**
 * A full rescan on demand (the admin CLI's `full-audit rescan`): every document whose content or claim
 * reader changed since it was read is read again, and the repository is judged as a whole, through the same job as the schedule's. Only in RUNNING_PHASE (409
 * otherwise); a scan already queued is not queued twice (its job id is returned). 404 for an instance
 * of another organisation.
 */
@Injectable()
export class RequestFullAuditScan {
  constructor(
    private readonly steps: GetInstanceStep,
    private readonly jobs: JobQueue,
    private readonly uow: UnitOfWork,
  ) {}

  async execute(input: { organizationId: string; instanceId: string }): Promise<{ jobId: string }> {
    const facts = await this.steps.facts(input.instanceId);
    if (!facts || facts.organizationId !== input.organizationId) throw DomainError.notFound('WORKSPACE.INSTANCE_NOT_FOUND', `Audit instance ${input.instanceId} does not exist in organisation ${input.organizationId}.`);
    if (facts.step !== 'RUNNING_PHASE') {
      throw DomainError.conflict('FULL_AUDIT.NOT_RUNNING', `Audit instance ${input.instanceId} is in step ${facts.step}; the full audit runs in RUNNING_PHASE (its first full scan starts there by itself).`);
    }
    const jobId = await this.uow.run(() => this.jobs.enqueue(JOB_NAMES.fullAuditScan, { instanceId: input.instanceId, reason: 'demand' }, scanJob(input.instanceId)));
    return { jobId };
  }
}

/**
 * Reads the claims of some documents (job `full-audit.extract`): a document whose content is unchanged
 * since it was last read, by the same version of the claim reader (CLAIMS_VERSION), is skipped; a deleted or no longer indexed one loses its claims. Outside a
 * full scan, the changed documents are marked for the incremental judgement. A chunk of a full scan
 * records itself done; the last one queues the judgement. Idempotent. Outcome: `read <n> changed <m>`.
 */
@Injectable()
export class ExtractClaims {
  constructor(
    private readonly source: ScanSource,
    private readonly claims: ClaimStore,
    private readonly scans: ScanStore,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
  ) {}

  async execute(payload: FullAuditExtractPayload): Promise<string> {
    const { instanceId, documentIds } = payload;
    const documents = await this.source.read(instanceId, documentIds);
    const known = await this.claims.contentHashes(instanceId, documentIds);
    const now = this.clock.now();
    const read: DocumentClaims[] = [];
    for (const document of documents) {
      const version = claimsVersionOf(document.contentHash);
      if (known.get(document.id) === version) continue;
      read.push({ documentId: document.id, contentHash: version, claims: claimsOfDocument(document), changedAt: now });
      await yieldToLoop();
    }
    const gone = documentIds.filter((id) => known.has(id) && !documents.some((d) => d.id === id));
    const changed = [...read.map((r) => r.documentId), ...gone];
    await this.uow.run(async () => {
      await this.claims.save(instanceId, read);
      await this.claims.remove(instanceId, gone);
      if (payload.scan) {
        const done = await this.scans.chunkDone(payload.scan.id, payload.scan.chunk);
        const scan = await this.scans.running(instanceId);
        if (scan && scan.id === payload.scan.id && done >= scan.chunks) await this.jobs.enqueue(JOB_NAMES.fullAuditJudge, { instanceId }, judgeJob(instanceId));
      } else if (changed.length > 0) {
        await this.claims.markDirty(instanceId, changed, now);
        await this.jobs.enqueue(JOB_NAMES.fullAuditJudge, { instanceId }, judgeJob(instanceId));
      }
    });
    return `read ${documents.length} changed ${changed.length}`;
  }
}

/**
 * A document was indexed or deleted (job `full-audit.document-changed`, ANALYSIS.md §7): in
 * RUNNING_PHASE its claims are read again and the judgement of what touches it is queued. Before the
 * first full scan, that scan is started instead (it reads every document).
 */
@Injectable()
export class RescanChangedDocument {
  constructor(
    private readonly steps: GetInstanceStep,
    private readonly scans: ScanStore,
    private readonly extract: ExtractClaims,
    private readonly jobs: JobQueue,
    private readonly uow: UnitOfWork,
  ) {}

  async execute(payload: DocumentChangedPayload): Promise<string> {
    if ((await this.steps.execute(payload.instanceId)) !== 'RUNNING_PHASE') return 'not_running';
    if (!(await this.scans.lastCompleted(payload.instanceId)) && !(await this.scans.running(payload.instanceId))) {
      await this.uow.run(() => this.jobs.enqueue(JOB_NAMES.fullAuditScan, { instanceId: payload.instanceId, reason: 'instance' }, scanJob(payload.instanceId)));
      return 'full_scan_queued';
    }
    return this.extract.execute({ instanceId: payload.instanceId, scan: null, documentIds: [payload.documentId] });
  }
}

/** What a judgement raises: a new finding, or one coming back after it had disappeared; null for the other steps. */
function raisedBy(step: ScanStep): FullAuditFinding | null {
  if (step.kind === 'insert') return step.finding;
  return step.kind === 'move' && step.finding && step.event === 'returned' ? step.finding : null;
}

/**
 * Writes what a judgement decided (the judge's steps, or a batch's confirmed candidates): in
 * transactions of FULL_AUDIT_SCAN.writeBatch steps, with the questions linked to each finding and the
 * activity log. Returns how many of each event happened.
 */
@Injectable()
export class ScanStepWriter {
  constructor(
    private readonly conflicts: FullAuditConflictRepository,
    private readonly links: QuestionLinks,
    private readonly activity: ActivityLog,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
  ) {}

  async write(instanceId: string, organizationId: string, steps: ScanStep[]): Promise<Record<string, number>> {
    const links = await this.linksOf(instanceId, steps);
    const counts: Record<string, number> = {};
    for (let i = 0; i < steps.length; i += FULL_AUDIT_SCAN.writeBatch) {
      const batch = steps.slice(i, i + FULL_AUDIT_SCAN.writeBatch);
      await this.uow.run(async () => {
        for (const step of batch) {
          const applied = await this.apply(step, instanceId, organizationId, links);
          if (applied) counts[applied] = (counts[applied] ?? 0) + 1;
        }
      });
    }
    return counts;
  }

  private linksOf(instanceId: string, steps: ScanStep[]): Promise<Map<string, FullAuditConflict['linkedQuestions']>> {
    const findings = new Map<string, FullAuditFinding['excerpts']>();
    for (const step of steps) {
      const finding = step.kind === 'insert' || step.kind === 'refresh' || step.kind === 'move' ? step.finding : null;
      if (finding) findings.set(finding.fingerprint, finding.excerpts);
    }
    return findings.size === 0 ? Promise.resolve(new Map()) : this.links.linked(instanceId, findings);
  }

  /** One step, in the caller's transaction; the activity log says what the scan did. Returns what happened, or null. */
  private async apply(step: ScanStep, instanceId: string, organizationId: string, links: Map<string, FullAuditConflict['linkedQuestions']>): Promise<string | null> {
    const now = this.clock.now();
    if (step.kind === 'insert') {
      const conflict: FullAuditConflict = {
        ...step.finding,
        id: this.ids.next('fc_'),
        instanceId,
        organizationId,
        state: 'DETECTED',
        linkedQuestions: links.get(step.finding.fingerprint) ?? [],
        answer: null,
        compagnonRecommendations: [],
        createdAt: now,
        updatedAt: now,
        lastSeenAt: now,
        answeredAt: null,
        managedAt: null,
        absentSince: null,
        version: 1,
      };
      if (!(await this.conflicts.insertIfNew(conflict))) return null;
      await this.activity.record({ organizationId, instanceId, action: 'full_audit_conflict.detected', subjectId: conflict.id, actor: null, before: null, after: { state: 'DETECTED', fingerprint: conflict.fingerprint } });
      return 'detected';
    }
    const { conflict } = step;
    const fresh = (finding: FullAuditFinding): FullAuditChanges => ({
      excerpts: finding.excerpts,
      subject: finding.subject,
      explanation: finding.explanation,
      compagnonQuestions: finding.compagnonQuestions,
      linkedQuestions: links.get(finding.fingerprint) ?? conflict.linkedQuestions,
      lastSeenAt: now,
    });
    if (step.kind === 'refresh') {
      // A concurrent edit by a person wins; the next scan refreshes again.
      await this.conflicts.update(conflict, { ...fresh(step.finding), updatedAt: now });
      return null;
    }
    if (step.kind === 'mark-absent') {
      await this.conflicts.update(conflict, { absentSince: now, updatedAt: now });
      return null;
    }
    const changes: FullAuditChanges = { ...(step.finding ? fresh(step.finding) : {}), state: step.state, absentSince: null, updatedAt: now };
    if (!(await this.conflicts.update(conflict, changes))) return null;
    await this.activity.record({ organizationId, instanceId, action: `full_audit_conflict.${step.event}`, subjectId: conflict.id, actor: null, before: { state: conflict.state }, after: { state: step.state } });
    return step.event;
  }
}

/**
 * Judges the claims (job `full-audit.judge`, ANALYSIS.md §4 steps 2-4): once every chunk of a running
 * full scan is read, the whole repository, reconciled with every stored conflict, and the scan
 * completes; otherwise the documents marked as changed, reconciled with the conflicts touching them
 * (read with the documents sharing a block with them and the repository's statistics, so the findings
 * touching them are those of a full judgement). Pairs the changes do not touch are not judged again,
 * although the statistics moved: once enough documents changed (`settleDue`), a settle is queued.
 * Outcome: counts of what changed.
 */
@Injectable()
export class JudgeFullAudit {
  private readonly logger = new Logger(JudgeFullAudit.name);

  constructor(
    private readonly steps: GetInstanceStep,
    private readonly scans: ScanStore,
    private readonly claims: ClaimStore,
    private readonly conflicts: FullAuditConflictRepository,
    private readonly source: ScanSource,
    private readonly judgeModel: ClaimJudge,
    private readonly batches: ModelBatchStore,
    private readonly rejections: ModelRejections,
    private readonly writer: ScanStepWriter,
    private readonly settings: FullAuditSettings,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
  ) {}

  async execute(payload: FullAuditJudgePayload): Promise<string> {
    const { instanceId } = payload;
    const facts = await this.steps.facts(instanceId);
    if (!facts) return 'no_instance';
    const scan = await this.scans.running(instanceId);
    if (scan) {
      const done = await this.scans.chunksDone(scan.id);
      if (done < scan.chunks) return `waiting ${done}/${scan.chunks}`;
      const startedAt = this.clock.now();
      const result = await this.judge(instanceId, facts.organizationId, null);
      await this.uow.run(async () => {
        await this.claims.clearDirty(instanceId, startedAt);
        await this.claims.resetDrift(instanceId);
        await this.scans.complete(scan.id, this.clock.now(), result.found);
      });
      return `full ${scan.id}: ${result.summary}`;
    }
    const outcomes: string[] = [];
    let drift: { changed: number; documents: number } | null = null;
    for (let round = 0; round < FULL_AUDIT_SCAN.maxRounds; round++) {
      const dirty = await this.claims.dirty(instanceId);
      if (dirty.length === 0) break;
      const upTo = new Date(Math.max(...dirty.map((d) => d.markedAt.getTime())));
      const result = await this.judge(instanceId, facts.organizationId, new Set(dirty.map((d) => d.documentId)));
      // The documents judged count towards the next settle in the transaction that clears their marks.
      drift = await this.uow.run(async () => {
        await this.claims.clearDirty(instanceId, upTo);
        return this.claims.addDrift(instanceId, dirty.length);
      });
      outcomes.push(`incremental ${dirty.length}: ${result.summary}`);
    }
    if (drift && this.settings.settleSeconds > 0 && settleDue(drift)) {
      await this.uow.run(() => this.jobs.enqueue(JOB_NAMES.fullAuditScan, { instanceId, reason: 'settle' }, settleJob(instanceId, this.settings.settleSeconds)));
      outcomes.push(`settle in ${this.settings.settleSeconds} s`);
    }
    return outcomes.join('; ') || 'nothing_changed';
  }

  private async judge(instanceId: string, organizationId: string, touching: Set<string> | null): Promise<{ found: number; summary: string }> {
    const { documents: all, statistics } = await this.claimsToJudge(instanceId, touching);
    const contradictions = findContradictions(all.flatMap((d) => d.claims), touching ? { touching, statistics } : {});
    const names = await this.namesOf([...new Set(contradictions.flatMap((c) => c.claims.map((claim) => claim.documentId)))], instanceId);
    const findings = contradictions.map((c) => findingOf(c, names));
    const existing = await this.conflicts.inScope(instanceId, touching ? [...touching] : null);
    const planned = planScan(existing, findings, changedAtOf(all));
    // The model (when configured) confirms what would be raised: new findings and those coming back; the others were raised before.
    // A full judgement leaves the candidates awaiting a batch's verdicts to that batch.
    const pending = touching ? new Set<string>() : await this.batches.pendingFingerprints(instanceId);
    const raised = planned.map(raisedBy).filter((f): f is FullAuditFinding => f !== null && !pending.has(f.fingerprint));
    const versions = new Map(all.map((d) => [d.documentId, d.contentHash]));
    const { confirmed, batched } = await this.verdicts(instanceId, raised, touching === null, versions);
    const steps = planned.filter((step) => {
      const finding = raisedBy(step);
      return !finding || confirmed.has(finding.fingerprint);
    });
    const counts = await this.writer.write(instanceId, organizationId, steps);
    const summary = `${findings.length} found` + Object.entries(counts).map(([k, n]) => `, ${n} ${k}`).join('') + (batched ? `, ${batched.candidates} awaiting the model's batch ${batched.id}` : '');
    this.logger.log({ instanceId, touching: touching?.size ?? 'all', claims: all.reduce((n, d) => n + d.claims.length, 0), summary }, 'full-audit judgement recorded');
    return { found: findings.length, summary };
  }

  /**
   * The candidates to raise now. Those the model rejected before, on documents unchanged since, are
   * not sent again. A full judgement with at least `modelBatchMin` others, on a model with batches,
   * submits them in one batch and raises none now: `CollectModelBatch` raises those the model confirms
   * once the batch has ended. Otherwise (or when the batch cannot be submitted) the model confirms them
   * call by call, and the rule-based verdict stands where it cannot. Rejections are remembered.
   */
  private async verdicts(instanceId: string, raised: FullAuditFinding[], full: boolean, versions: Map<string, string>): Promise<{ confirmed: Set<string>; batched?: { id: string; candidates: number } }> {
    if (raised.length === 0) return { confirmed: new Set() };
    const hashesOf = (f: FullAuditFinding) => Object.fromEntries(f.documentIds.map((id) => [id, versions.get(id) ?? '']));
    const rejected = await this.rejections.of(instanceId, raised.map((f) => f.fingerprint));
    const toJudge = raised.filter((f) => {
      const before = rejected.get(f.fingerprint);
      return !before || f.documentIds.some((id) => before[id] !== versions.get(id));
    });
    if (toJudge.length === 0) return { confirmed: new Set() };
    if (full && this.judgeModel.batches && this.settings.modelBatchMin > 0 && toJudge.length >= this.settings.modelBatchMin) {
      let batchId: string | null = null;
      try {
        batchId = await this.judgeModel.submit(toJudge);
      } catch (error) {
        this.logger.warn({ instanceId, candidates: toJudge.length, judge: this.judgeModel.name, error: loggableError(error) }, 'the model batch could not be submitted; the candidates are judged call by call');
      }
      if (batchId) {
        const contentHashes = Object.assign({}, ...toJudge.map(hashesOf)) as Record<string, string>;
        // Recorded, or the job fails and the judgement runs again (the batch then stays unread: a model cost, never a lost finding).
        await this.uow.run(async () => {
          await this.batches.add({ batchId, instanceId, candidates: toJudge, contentHashes, submittedAt: this.clock.now() });
          await this.jobs.enqueue(JOB_NAMES.fullAuditCollect, { instanceId, batchId }, collectJob(batchId, this.settings.batchPollSeconds * 1000));
        });
        this.logger.log({ instanceId, batch: batchId, candidates: toJudge.length, judge: this.judgeModel.name }, 'full-audit candidates submitted to the model in a batch');
        return { confirmed: new Set(), batched: { id: batchId, candidates: toJudge.length } };
      }
    }
    const confirmed = await this.judgeModel.confirm(toJudge);
    const now = this.clock.now();
    await this.uow.run(() => this.rejections.record(instanceId, toJudge.filter((f) => !confirmed.has(f.fingerprint)).map((f) => ({ fingerprint: f.fingerprint, contentHashes: hashesOf(f) })), now));
    return { confirmed };
  }

  /**
   * Every claim for a full judgement. For an incremental one, only the changed documents and those
   * sharing a block with them (blocks the judge would skip as too common or too large left out), with
   * the repository's statistics, so the findings are those a full judgement would give for them.
   */
  private async claimsToJudge(instanceId: string, touching: Set<string> | null): Promise<{ documents: DocumentClaims[]; statistics?: { documentFrequency: Map<string, number>; claims: number } }> {
    if (!touching) return { documents: await this.claims.all(instanceId) };
    const changed = await this.claims.ofDocuments(instanceId, [...touching]);
    const blocks = new Map<string, ClaimBlock>();
    for (const c of changed.flatMap((d) => d.claims)) for (const stem of c.subject) blocks.set(blockKey({ attribute: c.attribute, stem }), { attribute: c.attribute, stem });
    const own = await this.claims.statistics(instanceId, [...new Set([...blocks.values()].map((b) => b.stem))]);
    const limit = informativeLimit(own.claims);
    const informative = [...blocks.values()].filter((b) => (own.documentFrequency.get(b.stem) ?? 0) <= limit);
    const sizes = await this.claims.blockSizes(instanceId, informative);
    const near = await this.claims.documentsInBlocks(instanceId, informative.filter((b) => (sizes.get(blockKey(b)) ?? 0) <= CLAIM_JUDGE.maxBlockSize));
    const documents = [...changed, ...(await this.claims.ofDocuments(instanceId, near.filter((id) => !touching.has(id))))];
    const statistics = await this.claims.statistics(instanceId, [...new Set(documents.flatMap((d) => d.claims.flatMap((c) => c.subject)))]);
    return { documents, statistics };
  }

  private async namesOf(documentIds: string[], instanceId: string): Promise<DocumentNames> {
    const names: DocumentNames = new Map();
    for (let i = 0; i < documentIds.length; i += 100) for (const [id, n] of await this.source.names(instanceId, documentIds.slice(i, i + 100))) names.set(id, n);
    return names;
  }
}

/**
 * The model's verdicts on a batch of candidates (job `full-audit.collect`, queued when the batch is
 * submitted, then by every sweep until applied): while the batch runs, nothing (`in_progress`); once
 * it has ended, the candidates the model confirms (and those it did not answer: the rule-based verdict)
 * are raised, unless one of their documents changed since they were submitted (that change was
 * judged again by itself). A batch unanswered after FULL_AUDIT_SCAN.batchExpiryHours keeps the
 * rule-based verdict. Idempotent. Outcome: `in_progress`, `applied_already`, or what was raised.
 */
@Injectable()
export class CollectModelBatch {
  private readonly logger = new Logger(CollectModelBatch.name);

  constructor(
    private readonly steps: GetInstanceStep,
    private readonly batches: ModelBatchStore,
    private readonly rejections: ModelRejections,
    private readonly claims: ClaimStore,
    private readonly conflicts: FullAuditConflictRepository,
    private readonly judgeModel: ClaimJudge,
    private readonly writer: ScanStepWriter,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
  ) {}

  async execute(payload: FullAuditCollectPayload): Promise<string> {
    const batch = await this.batches.pending(payload.batchId);
    if (!batch) return 'applied_already';
    const facts = await this.steps.facts(batch.instanceId);
    if (!facts) return 'no_instance';
    const now = this.clock.now();
    const expired = now.getTime() - batch.submittedAt.getTime() >= FULL_AUDIT_SCAN.batchExpiryHours * 3_600_000;
    let kept: Set<string> | null;
    try {
      kept = await this.judgeModel.collect(batch.batchId, batch.candidates);
    } catch (error) {
      // Polling that keeps failing (the batch gone, the key moved) must not hold the candidates for ever.
      if (!expired) throw error;
      this.logger.warn({ instanceId: batch.instanceId, batch: batch.batchId, error: loggableError(error) }, 'the model batch could not be read in time; the rule-based verdict stands');
      kept = null;
    }
    if (kept === null) {
      if (!expired) {
        await this.uow.run(() => this.batches.polled(batch.batchId, now));
        return 'in_progress';
      }
      this.logger.warn({ instanceId: batch.instanceId, batch: batch.batchId, candidates: batch.candidates.length }, 'the model batch was not answered in time; the rule-based verdict stands');
      kept = new Set(batch.candidates.map((c) => c.fingerprint));
    }
    const confirmed = kept;
    const current = await this.claims.contentHashes(batch.instanceId, Object.keys(batch.contentHashes));
    const unchangedSince = (c: FullAuditFinding) => c.documentIds.every((id) => current.get(id) === batch.contentHashes[id]);
    const unchanged = batch.candidates.filter((c) => confirmed.has(c.fingerprint) && unchangedSince(c));
    // A document changed while its candidates waited: judged again now (a full judgement meanwhile may have left them to this batch).
    const changed = [...new Set(batch.candidates.filter((c) => !unchangedSince(c)).flatMap((c) => c.documentIds).filter((id) => current.has(id) && current.get(id) !== batch.contentHashes[id]))];
    const stored = new Map((await this.conflicts.withFingerprints(batch.instanceId, unchanged.map((c) => c.fingerprint))).map((c) => [c.fingerprint, c]));
    const steps: ScanStep[] = unchanged.flatMap((finding): ScanStep[] => {
      const conflict = stored.get(finding.fingerprint);
      if (!conflict) return [{ kind: 'insert', finding }];
      return conflict.state === 'DISAPPEARED' ? [{ kind: 'move', conflict, finding, state: 'DETECTED', event: 'returned' }] : [];
    });
    const counts = await this.writer.write(batch.instanceId, facts.organizationId, steps);
    const rejected = batch.candidates.filter((c) => !confirmed.has(c.fingerprint)).map((c) => ({ fingerprint: c.fingerprint, contentHashes: Object.fromEntries(c.documentIds.map((id) => [id, batch.contentHashes[id]])) }));
    await this.uow.run(async () => {
      await this.rejections.record(batch.instanceId, rejected, now);
      if (changed.length > 0) {
        await this.claims.markDirty(batch.instanceId, changed, now);
        await this.jobs.enqueue(JOB_NAMES.fullAuditJudge, { instanceId: batch.instanceId }, judgeJob(batch.instanceId));
      }
      await this.batches.applied(batch.batchId, now);
    });
    return `applied ${batch.batchId}: ${batch.candidates.length} candidates, ${confirmed.size} confirmed` + Object.entries(counts).map(([k, n]) => `, ${n} ${k}`).join('') + (changed.length > 0 ? `, ${changed.length} changed documents judged again` : '');
  }
}

/**
 * What the workers do every sweep: queue the judgement of changes still waiting (a change that
 * arrived while a judgement was finishing), and the full rescans the schedule calls for. Duplicate
 * jobs are refused by their dedupe keys, so every worker replica may sweep. Outcome: counts.
 */
@Injectable()
export class SweepFullAudit {
  constructor(
    private readonly claims: ClaimStore,
    private readonly scans: ScanStore,
    private readonly batches: ModelBatchStore,
    private readonly settings: FullAuditSettings,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
  ) {}

  async execute(): Promise<{ judged: number; rescans: number; abandoned: number; polled: number }> {
    const now = this.clock.now().getTime();
    // Changes left marked, and full scans whose chunks are all read, when their judgement job was refused as a duplicate of one finishing.
    const waiting = [...new Set([...(await this.claims.instancesWithDirty(new Date(now - 5_000))), ...(await this.scans.readToJudge(new Date(now - 5_000)))])];
    // A scan whose chunk failed for good (its job out of attempts) would block every later one: it is abandoned, the next scan reads again.
    const abandoned = await this.scans.abandonStale(new Date(now - FULL_AUDIT_SCAN.staleAfterHours * 3_600_000), this.clock.now());
    const due = this.settings.rescanHours > 0 ? await this.scans.dueForRescan(new Date(now - this.settings.rescanHours * 3_600_000)) : [];
    // Batches submitted to the model: polled until their verdicts are applied (also when their first poll was lost).
    const polled = await this.batches.pendingSince(new Date(now - this.settings.batchPollSeconds * 1000));
    await this.uow.run(async () => {
      for (const instanceId of waiting) await this.jobs.enqueue(JOB_NAMES.fullAuditJudge, { instanceId }, judgeJob(instanceId));
      for (const instanceId of due) await this.jobs.enqueue(JOB_NAMES.fullAuditScan, { instanceId, reason: 'schedule' }, scanJob(instanceId));
      for (const { instanceId, batchId } of polled) await this.jobs.enqueue(JOB_NAMES.fullAuditCollect, { instanceId, batchId }, collectJob(batchId, 0));
    });
    return { judged: waiting.length, rescans: due.length, abandoned, polled: polled.length };
  }
}
