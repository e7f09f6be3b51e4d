import { Injectable } from '@nestjs/common';
import type { DocumentChangedPayload, DuplicatesIdentifyPayload, DuplicatesVerifyPayload } from '@svc/contracts';
import { ActivityLog, Clock, IdGenerator, UnitOfWork } from '@svc/kernel';
import { CompleteInstanceStep, GetInstanceStep, InstanceStep } from '@svc/workspace-core';
import { ClusterPlan, DuplicateCluster, reconcileClusters, verificationOutcome } from './duplicate-cluster';
import { concurrentClusterChange } from './duplicates.errors';
import { DocumentFingerprint, DuplicateClusterRepository, DuplicatesSource, FingerprintStore, IdentificationRuns } from './duplicates.ports';
import { clustersOf, DuplicatesSettings, fingerprintOf, verifiedMatches } from './fingerprint';

/** Steps in which document changes are checked one by one (before, the whole-repository identification will read them). */
const INCREMENTAL_STEPS: readonly InstanceStep[] = ['ON_DUPLICATE_IDENTIFICATION', 'DUPLICATE_IDENTIFICATION_DONE', 'RUNNING_PHASE'];

export type Progress = (percent: number, message: string) => Promise<void>;

/** Writes a reconciliation plan: new clusters get ids, changed ones are version-guarded; every write is in the activity log (actor null: the service). */
@Injectable()
export class ClusterWriter {
  constructor(
    private readonly clusters: DuplicateClusterRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly activity: ActivityLog,
  ) {}

  async apply(instanceId: string, organizationId: string, plan: ClusterPlan, action: string): Promise<number> {
    const now = this.clock.now();
    for (const found of plan.create) {
      const cluster: DuplicateCluster = { id: this.ids.next('dup_'), instanceId, organizationId, state: 'DETECTED', ...found, createdAt: now, updatedAt: now, managedAt: null, lastVerificationAt: null, version: 1 };
      await this.clusters.insert(cluster);
      await this.activity.record({ organizationId, instanceId, action, subjectId: cluster.id, actor: null, before: null, after: { state: cluster.state, document_ids: cluster.documentIds, similarity: cluster.similarity } });
    }
    for (const { cluster, changes } of plan.update) {
      if (!(await this.clusters.update(cluster, { ...changes, updatedAt: now }))) throw concurrentClusterChange(cluster.id);
      const keys = Object.keys(changes) as (keyof typeof changes)[];
      await this.activity.record({ organizationId, instanceId, action, subjectId: cluster.id, actor: null, before: Object.fromEntries(keys.map((k) => [k, cluster[k] ?? null])), after: changes });
    }
    return plan.create.length + plan.update.length;
  }
}

/**
 * The work of step ON_DUPLICATE_IDENTIFICATION (job `duplicates.identify`): fingerprints every indexed
 * document whose content changed since its last fingerprint (an interrupted run resumes from what it
 * saved), clusters the whole repository, reconciles with the stored clusters under the instance's
 * lock, and completes the step in the same transaction. A job for an instance that left the step does nothing.
 */
@Injectable()
export class IdentifyDuplicates {
  constructor(
    private readonly steps: GetInstanceStep,
    private readonly completeStep: CompleteInstanceStep,
    private readonly source: DuplicatesSource,
    private readonly fingerprints: FingerprintStore,
    private readonly clusters: DuplicateClusterRepository,
    private readonly runs: IdentificationRuns,
    private readonly writer: ClusterWriter,
    private readonly settings: DuplicatesSettings,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
  ) {}

  async execute(payload: DuplicatesIdentifyPayload, progress: Progress): Promise<string> {
    const { instanceId } = payload;
    const facts = await this.steps.facts(instanceId);
    if (!facts || facts.step !== 'ON_DUPLICATE_IDENTIFICATION') return 'stale';
    const ids = await this.source.liveIds(instanceId);
    await this.runs.start(instanceId, ids.length, this.clock.now());
    await this.fingerprints.retainOnly(instanceId, ids);
    const known = await this.fingerprints.versions(instanceId, ids);
    const fresh = (id: string, contentHash: string) => known.get(id)?.contentHash === contentHash && known.get(id)?.scheme === this.settings.scheme;
    // Page by page (texts are held in memory only for the page; what a page saved survives a crash).
    // Only documents whose indexed content changed since their fingerprint are read: a rerun reads versions, not texts.
    const page = this.settings.pageDocuments;
    let computed = 0;
    for (let i = 0; i < ids.length; i += page) {
      const versions = await this.source.indexedVersions(instanceId, ids.slice(i, i + page));
      const stale = [...versions].filter(([id, contentHash]) => !fresh(id, contentHash)).map(([id]) => id);
      const documents = stale.length > 0 ? await this.source.read(instanceId, stale) : [];
      if (documents.length > 0) await this.fingerprints.save(instanceId, documents.map((d) => fingerprintOf(d, this.settings)), this.clock.now());
      computed += documents.length;
      const read = Math.min(ids.length, i + page);
      await this.runs.progress(instanceId, read);
      await progress(Math.floor((90 * read) / Math.max(1, ids.length)), `checked ${read}/${ids.length} documents, ${computed} fingerprinted`);
    }
    const { outcome, writes } = await this.uow.run(async () => {
      await this.clusters.lock(instanceId);
      const found = clustersOf(await this.fingerprints.all(instanceId), this.settings);
      const plan = reconcileClusters(await this.clusters.all(instanceId), found, this.clock.now());
      const writes = await this.writer.apply(instanceId, facts.organizationId, plan, 'duplicates.identified');
      await this.runs.finish(instanceId, found.length, this.clock.now());
      const advanced = await this.completeStep.execute(instanceId, 'ON_DUPLICATE_IDENTIFICATION', { duplicate_clusters: found.length });
      return { writes, outcome: `identified ${ids.length} documents (${computed} fingerprinted) clusters ${found.length} writes ${writes}${advanced ? '' : ' (step moved meanwhile)'}` };
    });
    // Many rows written at once: without fresh statistics the next document-changed checks may not use
    // the band index (measured at 100,000 documents: 22 → 4 ms per incremental check).
    if (computed > 0 || writes > 0) await this.fingerprints.refreshStatistics();
    await progress(100, outcome);
    return outcome;
  }

  /**
   * The run failed for good (its retries exhausted): the step completes anyway, so the instance
   * reaches RUNNING_PHASE and its analyses run; the failure is in the activity log, and
   * `update-instance-step` to LAUNCH_DUPLICATE_IDENTIFICATION runs the identification again.
   */
  async giveUp(payload: DuplicatesIdentifyPayload, reason: string): Promise<void> {
    await this.completeStep.execute(payload.instanceId, 'ON_DUPLICATE_IDENTIFICATION', { duplicate_identification: 'failed', reason: reason.slice(0, 500) });
  }
}

/**
 * A document was indexed or deleted (job `duplicates.document-changed`, ANALYSIS.md §7): its
 * fingerprint is refreshed, its LSH candidates verified, and the clusters around it recomputed the
 * way the whole-repository identification would (same clustering over the document, its matches and
 * the members of their open clusters; same reconciliation).
 */
@Injectable()
export class CheckChangedDocument {
  constructor(
    private readonly steps: GetInstanceStep,
    private readonly source: DuplicatesSource,
    private readonly fingerprints: FingerprintStore,
    private readonly clusters: DuplicateClusterRepository,
    private readonly writer: ClusterWriter,
    private readonly settings: DuplicatesSettings,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
  ) {}

  async execute(payload: DocumentChangedPayload): Promise<string> {
    const { instanceId, documentId } = payload;
    const facts = await this.steps.facts(instanceId);
    if (!facts) return 'stale';
    if (!INCREMENTAL_STEPS.includes(facts.step)) return 'not_yet';
    const [document] = payload.change === 'indexed' ? await this.source.read(instanceId, [documentId]) : [];
    let matches: DocumentFingerprint[] = [];
    if (document) {
      const fingerprint = fingerprintOf(document, this.settings);
      await this.fingerprints.save(instanceId, [fingerprint], this.clock.now());
      matches = verifiedMatches(fingerprint, await this.fingerprints.candidates(instanceId, fingerprint), this.settings);
    } else {
      await this.fingerprints.remove(instanceId, [documentId]);
    }
    return this.uow.run(async () => {
      await this.clusters.lock(instanceId);
      const around = [documentId, ...matches.map((m) => m.documentId)];
      const stored = await this.clusters.touching(instanceId, around);
      const neighbourhood = [...new Set([...around, ...stored.filter((c) => c.state !== 'RESOLVED').flatMap((c) => c.documentIds)])];
      const found = clustersOf(await this.fingerprints.ofDocuments(instanceId, neighbourhood), this.settings);
      const plan = reconcileClusters(stored, found, this.clock.now());
      const writes = await this.writer.apply(instanceId, facts.organizationId, plan, 'duplicates.document_checked');
      return `${document ? 'indexed' : 'removed'} matches ${matches.length} writes ${writes}`;
    });
  }
}

/**
 * The verification queued by set-managed (job `duplicates.verify`): reads the cluster's documents
 * from the repository again. RESOLVED when no two of those still there are duplicates of each other
 * (one document left, or the others deleted or rewritten), DETECTED otherwise; `last_verification_at`
 * either way (ADR 0037: two identical copies left are not resolved). A cluster no longer MANAGED
 * (reopened meanwhile) is left alone.
 */
@Injectable()
export class VerifyCluster {
  constructor(
    private readonly source: DuplicatesSource,
    private readonly clusters: DuplicateClusterRepository,
    private readonly settings: DuplicatesSettings,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly activity: ActivityLog,
  ) {}

  async execute(payload: DuplicatesVerifyPayload): Promise<string> {
    const documents = await this.source.read(payload.instanceId, (await this.clusters.get(payload.instanceId, payload.clusterId))?.documentIds ?? []);
    const left = clustersOf(documents.map((d) => fingerprintOf(d, this.settings)), this.settings);
    const state = verificationOutcome(left);
    return this.uow.run(async () => {
      await this.clusters.lock(payload.instanceId);
      const cluster = await this.clusters.get(payload.instanceId, payload.clusterId);
      if (!cluster || cluster.state !== 'MANAGED') return 'stale';
      const now = this.clock.now();
      if (!(await this.clusters.update(cluster, { state, lastVerificationAt: now, updatedAt: now }))) throw concurrentClusterChange(cluster.id);
      await this.activity.record({ organizationId: cluster.organizationId, instanceId: cluster.instanceId, action: 'duplicates.verified', subjectId: cluster.id, actor: null, before: { state: cluster.state }, after: { state, documents_left: documents.length, duplicated_left: left.reduce((n, c) => n + c.documentIds.length, 0) } });
      return `${state} (${documents.length} documents left)`;
    });
  }
}
