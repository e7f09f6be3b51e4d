import type { InstanceAccess } from '@svc/kernel';
/** Workflow steps of an audit instance, in order (BEHAVIOUR.md §2). */
export const INSTANCE_STEPS = [
  'INIT',
  'ON_CHECKING_INDEXATION',
  'CHECK_INDEXATION_DONE',
  'LAUNCH_DUPLICATE_IDENTIFICATION',
  'ON_DUPLICATE_IDENTIFICATION',
  'DUPLICATE_IDENTIFICATION_DONE',
  'RUNNING_PHASE',
] as const;
export type InstanceStep = (typeof INSTANCE_STEPS)[number];

export interface InstanceConfiguration {
  need_detect_owner_document_feature: boolean;
}

export const DEFAULT_CONFIGURATION: InstanceConfiguration = { need_detect_owner_document_feature: false };

/** An audit instance; its id is the id of the repository instance it audits (`ki_`). */
export interface AuditInstance {
  id: string;
  organizationId: string;
  name: string;
  step: InstanceStep;
  configuration: InstanceConfiguration;
  createdAt: Date;
  updatedAt: Date;
}

/** The caller's access to an audit instance, read once by the authorizer and handed to use cases. */
export type AuditInstanceAccess = InstanceAccess<AuditInstance>;

export interface Membership {
  instanceId: string;
  userId: string;
  isAdmin: boolean;
  addedAt: Date;
}

/** The instance record as the API shows it. */
export function instanceView(i: AuditInstance) {
  return {
    instance_id: i.id,
    name: i.name,
    step: i.step,
    configuration: { ...i.configuration },
    organization_id: i.organizationId,
    created_at: i.createdAt.toISOString(),
    updated_at: i.updatedAt.toISOString(),
  };
}
export type InstanceView = ReturnType<typeof instanceView>;

/**
 * What the background work of a step decides, given what the repository says. `delegated`: another
 * context does the step's work (its jobs are `STEP_JOBS[step]`) and completes the step when done.
 */
export type StepOutcome = { advanceTo: InstanceStep } | { waitSeconds: number } | { delegated: true } | { done: true };

/** The step after this one (RUNNING_PHASE is the last). */
export function nextStep(step: InstanceStep): InstanceStep {
  return INSTANCE_STEPS[Math.min(INSTANCE_STEPS.indexOf(step) + 1, INSTANCE_STEPS.length - 1)];
}

/**
 * The automated lifecycle (pure): which step follows, and when the work of a step must wait.
 * Indexation check waits while documents are pending; failed documents are counted, not waited for.
 */
export function stepOutcome(step: InstanceStep, facts: { pendingDocuments: number }): StepOutcome {
  switch (step) {
    case 'INIT':
      return { advanceTo: 'ON_CHECKING_INDEXATION' };
    case 'ON_CHECKING_INDEXATION':
      return facts.pendingDocuments > 0 ? { waitSeconds: 10 } : { advanceTo: 'CHECK_INDEXATION_DONE' };
    case 'CHECK_INDEXATION_DONE':
      return { advanceTo: 'LAUNCH_DUPLICATE_IDENTIFICATION' };
    case 'LAUNCH_DUPLICATE_IDENTIFICATION':
      return { advanceTo: 'ON_DUPLICATE_IDENTIFICATION' };
    case 'ON_DUPLICATE_IDENTIFICATION':
      // The duplicates context identifies the repository's duplicates and completes the step.
      return { delegated: true };
    case 'DUPLICATE_IDENTIFICATION_DONE':
      return { advanceTo: 'RUNNING_PHASE' };
    case 'RUNNING_PHASE':
      return { done: true };
  }
}
