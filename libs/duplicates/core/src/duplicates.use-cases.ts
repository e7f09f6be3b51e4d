import { Injectable } from '@nestjs/common';
import { JOB_NAMES } from '@svc/contracts';
import { ActivityLog, Clock, JobQueue, Page, PageRequest, Principal, UnitOfWork } from '@svc/kernel';
import { AuditInstanceAccess, DocumentVisibility, ReadDocumentNames } from '@svc/workspace-core';
import type { DuplicateCluster, DuplicateState } from './duplicate-cluster';
import { clusterNotFound, concurrentClusterChange } from './duplicates.errors';
import { DuplicateClusterRepository, Visible } from './duplicates.ports';

export interface DuplicateClusterView {
  id: string;
  instance_id: string;
  documents: { document_id: string; document_name: string; document_url: string | null }[];
  canonical_hash: string;
  similarity: number;
  exact: boolean;
  state: DuplicateState;
  created_at: string;
  updated_at: string;
  managed_at: string | null;
  last_verification_at: string | null;
}

const isVisible = (cluster: DuplicateCluster, visible: Visible) => visible === 'all' || cluster.documentIds.some((id) => visible.includes(id));

/**
 * The duplicate worklist: clusters newest first, documents hydrated with their current names and
 * links. With the owner flag on, a non-admin sees the clusters holding one of their documents, with
 * every copy (what they must merge with).
 */
@Injectable()
export class ListDuplicateClusters {
  constructor(
    private readonly clusters: DuplicateClusterRepository,
    private readonly visibility: DocumentVisibility,
    private readonly names: ReadDocumentNames,
  ) {}

  async execute(input: { principal: Principal; access: AuditInstanceAccess; page: PageRequest }): Promise<Page<DuplicateClusterView>> {
    const visible = await this.visibility.visibleTo(input.access, input.principal.userId);
    const page = await this.clusters.list(input.access.instanceId, visible, input.page);
    const names = await this.names.execute(input.access, page.items.flatMap((c) => c.documentIds));
    return {
      ...page,
      items: page.items.map((c) => ({
        id: c.id,
        instance_id: c.instanceId,
        documents: c.documentIds.map((id) => ({ document_id: id, document_name: names.get(id)?.name ?? id, document_url: names.get(id)?.url ?? null })),
        canonical_hash: c.canonicalHash,
        similarity: Math.round(c.similarity * 1000) / 1000,
        exact: c.exact,
        state: c.state,
        created_at: c.createdAt.toISOString(),
        updated_at: c.updatedAt.toISOString(),
        managed_at: c.managedAt?.toISOString() ?? null,
        last_verification_at: c.lastVerificationAt?.toISOString() ?? null,
      })),
    };
  }
}

/**
 * set-managed (spec part 3: from any state): the cluster becomes MANAGED and its verification job is
 * queued in the same transaction (it reads the repository again and decides RESOLVED or DETECTED).
 * Under the instance's cluster lock, so a verification or an identification finishing meanwhile is
 * waited for rather than answered with a 409: the expert's "done" always lands.
 */
@Injectable()
export class SetClusterManaged {
  constructor(
    private readonly clusters: DuplicateClusterRepository,
    private readonly visibility: DocumentVisibility,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly activity: ActivityLog,
  ) {}

  async execute(input: { principal: Principal; access: AuditInstanceAccess; clusterId: string }): Promise<true> {
    const visible = await this.visibility.visibleTo(input.access, input.principal.userId);
    return this.uow.run(async (): Promise<true> => {
      await this.clusters.lock(input.access.instanceId);
      const cluster = await this.clusters.get(input.access.instanceId, input.clusterId);
      if (!cluster || !isVisible(cluster, visible)) throw clusterNotFound(input.clusterId);
      const now = this.clock.now();
      if (!(await this.clusters.update(cluster, { state: 'MANAGED', managedAt: now, updatedAt: now }))) throw concurrentClusterChange(cluster.id);
      // An expert waits for the verification of what they just marked managed.
      await this.jobs.enqueue(JOB_NAMES.duplicatesVerify, { instanceId: cluster.instanceId, clusterId: cluster.id }, { priority: 'interactive' });
      await this.activity.record({ organizationId: cluster.organizationId, instanceId: cluster.instanceId, action: 'audit_duplicate_set_managed', subjectId: cluster.id, actor: input.principal, before: { state: cluster.state }, after: { state: 'MANAGED' } });
      return true;
    });
  }
}
