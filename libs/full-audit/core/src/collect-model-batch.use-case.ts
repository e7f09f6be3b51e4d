import { Injectable, Logger } from '@nestjs/common';
import { FullAuditCollectPayload, JOB_NAMES } from '@svc/contracts';
import { Clock, JobQueue, loggableError, noteModelFallback, UnitOfWork } from '@svc/kernel';
import { GetInstanceStep } from '@svc/workspace-core';
import { atVersions, sameContent, versionsOf } from './findings';
import { ClaimStore, FullAuditConflictRepository, ModelBatchStore, ModelRejections } from './full-audit.ports';
import { CLAIM_JUDGE_BATCH, ClaimJudge } from './judge/claim-judge';
import type { ScanStep } from './scan-plan';
import { FULL_AUDIT_SCAN, judgeJob } from './scan-settings';
import { ScanStepWriter } from './scan-step-writer';

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
      noteModelFallback('claim-judge', this.judgeModel, this.logger, 'failed', { instanceId: batch.instanceId, batch: batch.batchId, candidates: batch.candidates.length, problem: 'the batch could not be read in time', error: loggableError(error) }, Math.ceil(batch.candidates.length / CLAIM_JUDGE_BATCH));
      kept = null;
    }
    if (kept === null) {
      if (!expired) {
        await this.uow.run(() => this.batches.polled(batch.batchId, now));
        return 'in_progress';
      }
      noteModelFallback('claim-judge', this.judgeModel, this.logger, 'failed', { instanceId: batch.instanceId, batch: batch.batchId, candidates: batch.candidates.length, problem: 'the batch was not answered in time' }, Math.ceil(batch.candidates.length / CLAIM_JUDGE_BATCH));
      kept = new Set(batch.candidates.map((c) => c.fingerprint));
    }
    const confirmed = kept;
    const current = await this.claims.contentHashes(batch.instanceId, Object.keys(batch.contentHashes));
    const unchanged = batch.candidates.filter((c) => confirmed.has(c.fingerprint) && atVersions(c, batch.contentHashes, current));
    // A document changed while its candidates waited: judged again now (a full judgement meanwhile may have left them to this batch).
    const changed = Object.keys(batch.contentHashes).filter((id) => current.has(id) && !sameContent(current.get(id), batch.contentHashes[id]));
    const stored = new Map((await this.conflicts.withFingerprints(batch.instanceId, unchanged.map((c) => c.fingerprint))).map((c) => [c.fingerprint, c]));
    const steps: ScanStep[] = unchanged.flatMap((finding): ScanStep[] => {
      const conflict = stored.get(finding.fingerprint);
      if (!conflict) return [{ kind: 'insert', finding }];
      return conflict.state === 'DISAPPEARED' ? [{ kind: 'move', conflict, finding, state: 'DETECTED', event: 'returned' }] : [];
    });
    const counts = await this.writer.write(batch.instanceId, facts.organizationId, steps);
    const rejected = batch.candidates.filter((c) => !confirmed.has(c.fingerprint)).map((c) => ({ fingerprint: c.fingerprint, contentHashes: versionsOf(c, new Map(Object.entries(batch.contentHashes))) }));
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
