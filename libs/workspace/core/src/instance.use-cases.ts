import { Injectable } from '@nestjs/common';
import { JOB_NAMES, RUNNING_PHASE_JOBS, STEP_JOBS, WorkspaceRunStepPayload } from '@svc/contracts';
import {
  ActivityLog,
  Clock,
  JobQueue,
  instanceAccessOf,
  isOrganizationWide,
  Page,
  PageRequest,
  Principal,
  UnitOfWork,
} from '@svc/kernel';
import { AuditInstance, AuditInstanceAccess, DEFAULT_CONFIGURATION, InstanceStep, instanceView, InstanceView, nextStep, stepOutcome } from './audit-instance';
import { AuditInstanceRepository, MembershipRepository, RepositoryInstances, RepositoryLinkStore } from './workspace.ports';


/**
 * Queues the work of a step. A first run is deduplicated per instance and step; a delayed re-check
 * is enqueued by the running job itself, so it cannot share the running job's dedupe key.
 */
function enqueueStep(jobs: JobQueue, instanceId: string, step: InstanceStep, recheckAfterMs?: number) {
  const payload: WorkspaceRunStepPayload = { instanceId, step };
  return jobs.enqueue(JOB_NAMES.workspaceRunStep, payload, recheckAfterMs === undefined ? { dedupeKey: `${instanceId}:${step}` } : { delayMs: recheckAfterMs });
}

/**
 * Creates a repository instance and the audit instance bound to it (same `ki_` id). The creator
 * becomes its first admin; the automated lifecycle starts at INIT.
 */
@Injectable()
export class CreateAuditInstance {
  constructor(
    private readonly instances: AuditInstanceRepository,
    private readonly members: MembershipRepository,
    private readonly links: RepositoryLinkStore,
    private readonly repositories: RepositoryInstances,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly activity: ActivityLog,
  ) {}

  async execute(principal: Principal, input: { name: string }): Promise<InstanceView> {
    return this.uow.run(async () => {
      const now = this.clock.now();
      const repository = await this.repositories.create(principal.organizationId, input.name);
      const instance: AuditInstance = {
        id: repository.instanceId,
        organizationId: principal.organizationId,
        name: input.name,
        step: 'INIT',
        configuration: { ...DEFAULT_CONFIGURATION },
        createdAt: now,
        updatedAt: now,
      };
      await this.instances.insert(instance);
      await this.links.save(instance.id, { svcInstanceId: repository.instanceId, apiKey: repository.apiKey });
      await this.members.upsert({ instanceId: instance.id, userId: principal.userId, isAdmin: true, addedAt: now });
      await enqueueStep(this.jobs, instance.id, 'INIT');
      await this.activity.record({ organizationId: instance.organizationId, instanceId: instance.id, action: 'audit_instance_create', subjectId: instance.id, actor: principal, before: null, after: instanceView(instance) });
      return instanceView(instance);
    });
  }
}

/** Instances the caller can access: all of the organisation for ADMIN and AUTHORITY_MANAGER, else memberships. */
@Injectable()
export class ListInstancesForUser {
  constructor(private readonly instances: AuditInstanceRepository) {}

  async execute(principal: Principal, page: PageRequest): Promise<Page<InstanceView>> {
    const organizationWide = isOrganizationWide(principal.roles);
    const result = organizationWide
      ? await this.instances.listForOrganization(principal.organizationId, page)
      : await this.instances.listForMember(principal.organizationId, principal.userId, page);
    return { ...result, items: result.items.map(instanceView) };
  }
}

/**
 * Every instance the caller can access, with the caller's standing on each as the authorizer would
 * establish it for one of them (for views over all of them at once: the dashboard).
 */
@Injectable()
export class ListAccessibleInstances {
  constructor(private readonly instances: AuditInstanceRepository) {}

  async execute(principal: Principal): Promise<AuditInstanceAccess[]> {
    const rows = await this.instances.listAccessible(principal.organizationId, principal.userId, isOrganizationWide(principal.roles));
    return rows.map(({ instance, membership }) =>
      instanceAccessOf(principal.roles, { instanceId: instance.id, organizationId: instance.organizationId, isMember: membership !== null, isInstanceAdmin: membership?.isAdmin ?? false, instance }),
    );
  }
}

@Injectable()
export class GetInstance {
  async execute(access: AuditInstanceAccess): Promise<InstanceView> {
    return instanceView(access.instance);
  }
}

/**
 * The linked repository instance and its instance API key. Who may see it is the operation's access
 * rule (kernel AUDIT_ACCESS: key-management roles and instance admin, ADR 0028), applied by the
 * authorizer that produced `access`.
 */
@Injectable()
export class GetSvcInstances {
  constructor(private readonly links: RepositoryLinkStore) {}

  async execute(access: AuditInstanceAccess): Promise<{ svc_instance_id: string; api_key: string }[]> {
    const link = await this.links.get(access.instanceId);
    return link ? [{ svc_instance_id: link.svcInstanceId, api_key: link.apiKey }] : [];
  }
}

/** Admin recovery: sets any step, logs it, and restarts the background work of that step. */
@Injectable()
export class UpdateInstanceStep {
  constructor(
    private readonly instances: AuditInstanceRepository,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly activity: ActivityLog,
  ) {}

  async execute(principal: Principal, access: AuditInstanceAccess, step: InstanceStep): Promise<true> {
    const { instance, instanceId } = access;
    return this.uow.run(async (): Promise<true> => {
      await this.instances.setStep(instanceId, step, this.clock.now());
      await enqueueStep(this.jobs, instanceId, step);
      await this.activity.record({ organizationId: instance.organizationId, instanceId, action: 'audit_instance_update_step', subjectId: instanceId, actor: principal, before: { step: instance.step }, after: { step } });
      return true;
    });
  }
}

@Injectable()
export class UpdateConfiguration {
  constructor(
    private readonly instances: AuditInstanceRepository,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly activity: ActivityLog,
  ) {}

  async execute(principal: Principal, access: AuditInstanceAccess, needDetectOwnerDocumentFeature: boolean): Promise<true> {
    const { instance, instanceId } = access;
    return this.uow.run(async (): Promise<true> => {
      const configuration = { ...instance.configuration, need_detect_owner_document_feature: needDetectOwnerDocumentFeature };
      await this.instances.setConfiguration(instanceId, configuration, this.clock.now());
      await this.activity.record({ organizationId: instance.organizationId, instanceId, action: 'audit_instance_update_configuration', subjectId: instanceId, actor: principal, before: instance.configuration, after: configuration });
      return true;
    });
  }
}

/**
 * The background work of one step (job `workspace.run-step`). A job for a step the instance has
 * left is stale and does nothing; the move to the next step and the job for it commit together.
 */
@Injectable()
export class RunInstanceStep {
  constructor(
    private readonly instances: AuditInstanceRepository,
    private readonly repositories: RepositoryInstances,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly activity: ActivityLog,
  ) {}

  async execute(payload: WorkspaceRunStepPayload): Promise<'stale' | 'waiting' | 'delegated' | 'advanced' | 'done'> {
    return this.uow.run(async () => {
      const instance = await this.instances.get(payload.instanceId);
      if (!instance || instance.step !== payload.step) return 'stale';
      const outcome = stepOutcome(instance.step, { pendingDocuments: await this.repositories.pendingDocuments(instance.id) });
      if ('done' in outcome) return 'done';
      if ('delegated' in outcome) {
        for (const job of STEP_JOBS[instance.step as keyof typeof STEP_JOBS] ?? []) await this.jobs.enqueue(job, { instanceId: instance.id });
        return 'delegated';
      }
      if ('waitSeconds' in outcome) {
        await enqueueStep(this.jobs, instance.id, instance.step, outcome.waitSeconds * 1000);
        return 'waiting';
      }
      if (!(await this.instances.compareAndSetStep(instance.id, instance.step, outcome.advanceTo, this.clock.now()))) return 'stale';
      await enqueueStep(this.jobs, instance.id, outcome.advanceTo);
      // Questions created before the running phase are analysed over the whole indexed repository, and the first full scan starts.
      if (outcome.advanceTo === 'RUNNING_PHASE') for (const job of RUNNING_PHASE_JOBS) await this.jobs.enqueue(job, { instanceId: instance.id });
      await this.activity.record({ organizationId: instance.organizationId, instanceId: instance.id, action: 'workspace.step_advanced', subjectId: instance.id, actor: null, before: { step: instance.step }, after: { step: outcome.advanceTo } });
      return 'advanced';
    });
  }
}

/**
 * Completes a delegated step (the duplicates context after identifying duplicates): moves the
 * instance to the next step and queues that step's work, in the caller's transaction. False when the
 * instance is no longer in that step (an admin moved it meanwhile): the work's result stays, the step does not move.
 */
@Injectable()
export class CompleteInstanceStep {
  constructor(
    private readonly instances: AuditInstanceRepository,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly activity: ActivityLog,
  ) {}

  async execute(instanceId: string, step: InstanceStep, outcome: Record<string, unknown>): Promise<boolean> {
    return this.uow.run(async () => {
      const instance = await this.instances.get(instanceId);
      if (!instance || instance.step !== step) return false;
      const next = nextStep(step);
      if (!(await this.instances.compareAndSetStep(instanceId, step, next, this.clock.now()))) return false;
      await enqueueStep(this.jobs, instanceId, next);
      await this.activity.record({ organizationId: instance.organizationId, instanceId, action: 'workspace.step_advanced', subjectId: instanceId, actor: null, before: { step }, after: { step: next, ...outcome } });
      return true;
    });
  }
}

/** The step of an instance, for background work of other contexts that runs only in some steps; null when it does not exist. */
@Injectable()
export class GetInstanceStep {
  constructor(private readonly instances: AuditInstanceRepository) {}

  async execute(instanceId: string): Promise<InstanceStep | null> {
    return (await this.instances.get(instanceId))?.step ?? null;
  }

  /** The step and the organisation (what background work records its findings under); null when the instance does not exist. */
  async facts(instanceId: string): Promise<{ step: InstanceStep; organizationId: string } | null> {
    const instance = await this.instances.get(instanceId);
    return instance ? { step: instance.step, organizationId: instance.organizationId } : null;
  }
}
