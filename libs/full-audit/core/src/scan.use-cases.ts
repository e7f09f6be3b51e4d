import { Injectable, Logger } from '@nestjs/common';
import { DocumentChangedPayload, FullAuditExtractPayload, FullAuditJudgePayload, FullAuditScanPayload, JOB_NAMES } from '@svc/contracts';
import { auditInstanceNotFound, Clock, DomainError, IdGenerator, JobQueue, loggableError, UnitOfWork } from '@svc/kernel';
import { CLAIM_JUDGE, claimBlocks, groupContradictions, informativeLimit, isNameStem, isSignatureBand, nameStem } from '@svc/text';
import { GetInstanceStep } from '@svc/workspace-core';
import type { FullAuditFinding } from './full-audit-conflict';
import { blockKey, ClaimBlock, ClaimStore, DocumentClaims, FullAuditConflictRepository, ModelBatchStore, ModelRejections, ScanSource, ScanStore } from './full-audit.ports';
import { ClaimReader } from './claim-reader';
import { atVersions, changedAtOf, DocumentNames, findingOf, supersededAmong, versionsOf } from './findings';
import { ClaimJudge } from './judge/claim-judge';
import { ContradictionFinder } from './judge/contradiction-finder';
import { planScan } from './scan-plan';
import { claimsVersionOf, collectJob, FULL_AUDIT_SCAN, FullAuditSettings, judgeJob, scanJob, settleDue, settleJob } from './scan-settings';
import { raisedBy, ScanStepWriter } from './scan-step-writer';
import { DiscoverySettings, ModelDiscovery } from './discovery/model-discovery';
import { ScanModelLedger } from './discovery/discovery.ports';

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
 * reader changed since it was read is read again, and the repository is judged as a whole, through the
 * same job as the schedule's. Only in RUNNING_PHASE (409 otherwise); a scan already queued is not queued
 * twice (its job id is returned). 404 for an instance of another organisation.
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
    if (!facts || facts.organizationId !== input.organizationId) throw auditInstanceNotFound(input.instanceId);
    if (facts.step !== 'RUNNING_PHASE') {
      throw DomainError.conflict('FULL_AUDIT.NOT_RUNNING', `Audit instance ${input.instanceId} is in step ${facts.step}; the full audit runs in RUNNING_PHASE (its first full scan starts there by itself).`);
    }
    const jobId = await this.uow.run(() => this.jobs.enqueue(JOB_NAMES.fullAuditScan, { instanceId: input.instanceId, reason: 'demand' }, scanJob(input.instanceId)));
    return { jobId };
  }
}

/**
 * Reads the claims of some documents (job `full-audit.extract`): a document whose content is unchanged
 * since it was last read, by the same version of the claim reader (CLAIMS_VERSION), is skipped; a
 * deleted or no longer indexed one loses its claims. Outside a full scan, the changed documents are marked for the incremental judgement. A chunk of a full scan
 * records itself done; the last one queues the judgement. Idempotent. Outcome: `read <n> changed <m>`.
 */
@Injectable()
export class ExtractClaims {
  constructor(
    private readonly source: ScanSource,
    private readonly claims: ClaimStore,
    private readonly scans: ScanStore,
    private readonly settings: FullAuditSettings,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly reader: ClaimReader,
    private readonly discovery: ModelDiscovery,
  ) {}

  async execute(payload: FullAuditExtractPayload): Promise<string> {
    const { instanceId, documentIds } = payload;
    const vectors = this.settings.vectorBand !== null;
    const documents = await this.source.read(instanceId, documentIds, { vectors });
    const known = await this.claims.contentHashes(instanceId, documentIds);
    const now = this.clock.now();
    const versionOf = (document: (typeof documents)[number], discovery = this.discovery.version) => claimsVersionOf(document.contentHash, vectors ? (document.vectorModel ?? null) : null, discovery);
    const changedDocuments = documents.filter((document) => known.get(document.id) !== versionOf(document));
    // CPU work of up to seconds for a chunk: the reader may run it off the thread that serves requests.
    const claimsRead = await this.reader.read(changedDocuments);
    // With a model configured, its statements too (cached by passage; within the scan's budget): a document it did not
    // finish keeps the version of an offline reading, so the next scan reads it again (what was read costs nothing then).
    const readings = this.discovery.enabled ? await this.discovery.read(instanceId, payload.scan?.id ?? null, changedDocuments) : null;
    const read: DocumentClaims[] = changedDocuments.map((document, i) => {
      const reading = readings?.get(document.id);
      const contentHash = reading && !reading.complete ? versionOf(document, null) : versionOf(document);
      return { documentId: document.id, contentHash, claims: claimsRead[i], ...(reading ? { statements: reading.statements } : {}), changedAt: now };
    });
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
    private readonly contradictions: ContradictionFinder,
    private readonly discovery: ModelDiscovery,
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
      const result = await this.judge(instanceId, facts.organizationId, null, scan.id);
      await this.uow.run(async () => {
        await this.claims.clearDirty(instanceId, startedAt);
        await this.claims.resetDrift(instanceId);
        await this.scans.complete(scan.id, this.clock.now(), result.found);
      });
      // What model-led discovery read or judged that can never be used again (another model, changed documents).
      await this.discovery.prune(instanceId);
      return `full ${scan.id}: ${result.summary}`;
    }
    const outcomes: string[] = [];
    let drift: { changed: number; documents: number } | null = null;
    for (let round = 0; round < FULL_AUDIT_SCAN.maxRounds; round++) {
      const dirty = await this.claims.dirty(instanceId);
      if (dirty.length === 0) break;
      const upTo = new Date(Math.max(...dirty.map((d) => d.markedAt.getTime())));
      const result = await this.judge(instanceId, facts.organizationId, new Set(dirty.map((d) => d.documentId)), null);
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

  private async judge(instanceId: string, organizationId: string, touching: Set<string> | null, scanId: string | null): Promise<{ found: number; summary: string }> {
    const { documents: all, statistics, blockSizes } = await this.claimsToJudge(instanceId, touching);
    const vectorBand = this.settings.vectorBand ?? undefined;
    // Seconds of CPU on a large repository: the finder may run it off the thread that serves requests.
    const contradictions = await this.contradictions.find(all.flatMap((d) => d.claims), touching ? { touching, statistics, vectorBand, blockSizes } : { vectorBand });
    const names = await this.namesOf([...new Set(contradictions.flatMap((c) => c.claims.map((claim) => claim.documentId)))], instanceId);
    // One finding per disagreement, however many documents state its subject (ADR 0046).
    const findings = groupContradictions(contradictions, await this.supersededAmong(instanceId, [...names.keys()])).map((d) => findingOf(d, names));
    // With a model configured, the disagreements it finds in its own statements, judged by it (issue 24 item 3).
    const discovery = this.discovery.enabled
      ? await this.discovery.findings(instanceId, scanId, touching ? await this.claims.withStatements(instanceId) : all, touching, (ids) => this.namesOf(ids, instanceId), this.settings.vectorBand)
      : null;
    const discovered = discovery ? notFoundByRules(discovery.findings, findings) : [];
    const byModel = new Set(discovered.flatMap((f) => f.pairs.map((p) => p.fingerprint)));
    const existing = await this.conflicts.inScope(instanceId, touching ? [...touching] : null);
    const planned = planScan(existing, [...findings, ...discovered], changedAtOf(all), touching);
    // The model (when configured) confirms what would be raised: new findings and those coming back; the others were raised before.
    // A full judgement leaves the candidates awaiting a batch's verdicts to that batch.
    const pending = touching ? new Set<string>() : await this.batches.pendingFingerprints(instanceId);
    const raised = planned.map(raisedBy).filter((f): f is FullAuditFinding => f !== null && !pending.has(f.fingerprint));
    const versions = new Map(all.map((d) => [d.documentId, d.contentHash]));
    // The model's own findings are its verdicts already: they are not sent to it again.
    const fromModel = (f: FullAuditFinding) => f.pairs.length > 0 && f.pairs.every((p) => byModel.has(p.fingerprint));
    const { confirmed, batched } = await this.verdicts(instanceId, raised.filter((f) => !fromModel(f)), touching === null, versions);
    for (const f of raised) if (fromModel(f)) confirmed.add(f.fingerprint);
    const steps = planned.filter((step) => {
      const finding = raisedBy(step);
      return !finding || confirmed.has(finding.fingerprint);
    });
    const counts = await this.writer.write(instanceId, organizationId, steps);
    const summary =
      `${findings.length + discovered.length} found` +
      Object.entries(counts).map(([k, n]) => `, ${n} ${k}`).join('') +
      (batched ? `, ${batched.candidates} awaiting the model's batch ${batched.id}` : '') +
      (discovery ? `, ${discovered.length} by the model (${discovery.judged} pairs judged, ${discovery.pending} left for the next scan)` : '');
    this.logger.log({ instanceId, touching: touching?.size ?? 'all', claims: all.reduce((n, d) => n + d.claims.length, 0), summary }, 'full-audit judgement recorded');
    return { found: findings.length + discovered.length, summary };
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
    const rejected = await this.rejections.of(instanceId, raised.map((f) => f.fingerprint));
    const toJudge = raised.filter((f) => {
      const before = rejected.get(f.fingerprint);
      return !before || !atVersions(f, before, versions);
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
        const contentHashes = Object.assign({}, ...toJudge.map((f) => versionsOf(f, versions))) as Record<string, string>;
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
    await this.uow.run(() => this.rejections.record(instanceId, toJudge.filter((f) => !confirmed.has(f.fingerprint)).map((f) => ({ fingerprint: f.fingerprint, contentHashes: versionsOf(f, versions) })), now));
    return { confirmed };
  }

  /**
   * Every claim for a full judgement. For an incremental one, only the changed documents and those
   * sharing a block with them (blocks the judge would skip as too common or too large left out), with
   * the repository's statistics, so the findings are those a full judgement would give for them.
   */
  private async claimsToJudge(
    instanceId: string,
    touching: Set<string> | null,
  ): Promise<{ documents: DocumentClaims[]; statistics?: { documentFrequency: Map<string, number>; claims: number; documents: number }; blockSizes?: Map<string, number> }> {
    if (!touching) return { documents: await this.claims.all(instanceId) };
    const changed = await this.claims.ofDocuments(instanceId, [...touching]);
    const blocks = new Map<string, ClaimBlock>();
    // Subject stems, and the signature bands of vector-neighbour blocking when it is on.
    const vectors = this.settings.vectorBand !== null;
    for (const c of changed.flatMap((d) => d.claims)) {
      for (const block of claimBlocks(c)) if (vectors || !isSignatureBand(block.stem)) blocks.set(blockKey(block), block);
    }
    const own = await this.claims.statistics(instanceId, [...new Set([...blocks.values()].map((b) => b.stem).filter((s) => !isSignatureBand(s)))]);
    const limit = informativeLimit(own.claims);
    // Scope names are counted (the judge reads how common a name is), never compared in.
    const informative = [...blocks.values()].filter((b) => !isNameStem(b.stem) && (isSignatureBand(b.stem) || (own.documentFrequency.get(b.stem) ?? 0) <= limit));
    const sizes = await this.claims.blockSizes(instanceId, informative);
    const near = await this.claims.documentsInBlocks(instanceId, informative.filter((b) => (sizes.get(blockKey(b)) ?? 0) <= CLAIM_JUDGE.maxBlockSize));
    const documents = [...changed, ...(await this.claims.ofDocuments(instanceId, near.filter((id) => !touching.has(id))))];
    const statistics = await this.claims.statistics(instanceId, [...new Set(documents.flatMap((d) => d.claims.flatMap((c) => [...c.subject, ...c.scope.map(nameStem)])))]);
    // The repository-wide sizes of the changed documents' blocks: one too large to compare in a full judgement is skipped here too.
    return { documents, statistics, blockSizes: sizes };
  }

  /** The superseded versions among the documents of the findings, read from their heads (ANALYSIS.md §4 step 4). */
  private async supersededAmong(instanceId: string, documentIds: string[]): Promise<Map<string, string | null>> {
    const heads = [];
    for (let i = 0; i < documentIds.length; i += 100) {
      for (const d of await this.source.read(instanceId, documentIds.slice(i, i + 100))) heads.push({ id: d.id, name: d.name, passages: d.passages.slice(0, 4) });
    }
    return supersededAmong(heads);
  }

  private async namesOf(documentIds: string[], instanceId: string): Promise<DocumentNames> {
    const names: DocumentNames = new Map();
    for (let i = 0; i < documentIds.length; i += 100) for (const [id, n] of await this.source.names(instanceId, documentIds.slice(i, i + 100))) names.set(id, n);
    return names;
  }
}

/**
 * What the workers do every sweep: queue the judgement of changes still waiting (a change that
 * arrived while a judgement was finishing), the full rescans the schedule calls for, and, with model-led
 * discovery, a full scan of the instances whose last scan an outage of the model stopped (after
 * FULL_AUDIT_SCAN.outageResumeMinutes; it reads and judges what was left, the rest costs nothing). Duplicate
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
    private readonly discovery: DiscoverySettings,
    private readonly ledger: ScanModelLedger,
  ) {}

  async execute(): Promise<{ judged: number; rescans: number; abandoned: number; polled: number; resumed: number }> {
    const now = this.clock.now().getTime();
    // Changes left marked, and full scans whose chunks are all read, when their judgement job was refused as a duplicate of one finishing.
    const waiting = [...new Set([...(await this.claims.instancesWithDirty(new Date(now - 5_000))), ...(await this.scans.readToJudge(new Date(now - 5_000)))])];
    // A scan whose chunk failed for good (its job out of attempts) would block every later one: it is abandoned, the next scan reads again.
    const abandoned = await this.scans.abandonStale(new Date(now - FULL_AUDIT_SCAN.staleAfterHours * 3_600_000), this.clock.now());
    const scheduled = this.settings.rescanHours > 0 ? await this.scans.dueForRescan(new Date(now - this.settings.rescanHours * 3_600_000)) : [];
    const resumed = this.discovery.enabled ? (await this.ledger.stoppedByOutage(new Date(now - FULL_AUDIT_SCAN.outageResumeMinutes * 60_000))).filter((id) => !scheduled.includes(id)) : [];
    const due = [...scheduled, ...resumed];
    // Batches submitted to the model: polled until their verdicts are applied (also when their first poll was lost).
    const polled = await this.batches.pendingSince(new Date(now - this.settings.batchPollSeconds * 1000));
    await this.uow.run(async () => {
      for (const instanceId of waiting) await this.jobs.enqueue(JOB_NAMES.fullAuditJudge, { instanceId }, judgeJob(instanceId));
      for (const instanceId of due) await this.jobs.enqueue(JOB_NAMES.fullAuditScan, { instanceId, reason: 'schedule' }, scanJob(instanceId));
      for (const { instanceId, batchId } of polled) await this.jobs.enqueue(JOB_NAMES.fullAuditCollect, { instanceId, batchId }, collectJob(batchId, 0));
    });
    return { judged: waiting.length, rescans: scheduled.length, abandoned, polled: polled.length, resumed: resumed.length };
  }
}

/**
 * The model's findings no rule-based finding already holds: one whose every statement's passage is among a single
 * rule-based finding's passages is that finding seen again (the rule-based one stands, confirmed by the model's judge).
 */
export function notFoundByRules(discovered: readonly FullAuditFinding[], byRules: readonly FullAuditFinding[]): FullAuditFinding[] {
  const passagesOf = byRules.map((f) => new Set(f.excerpts.map((e) => `${e.documentId}|${e.semanticNodeId}`)));
  return discovered.filter((f) => !passagesOf.some((passages) => f.excerpts.every((e) => passages.has(`${e.documentId}|${e.semanticNodeId}`))));
}
