import type { Page, PageRequest, Role } from '@svc/kernel';
import type { AuditInstance, InstanceConfiguration, InstanceStep, Membership } from './audit-instance';

export abstract class AuditInstanceRepository {
  abstract insert(instance: AuditInstance): Promise<void>;
  abstract get(id: string): Promise<AuditInstance | null>;
  /** The instance and the user's membership of it, in one read; null when the instance does not exist. */
  abstract getWithMembership(id: string, userId: string): Promise<{ instance: AuditInstance; membership: Membership | null } | null>;
  /** Every instance of the organisation, newest first (ties by id). */
  abstract listForOrganization(organizationId: string, page: PageRequest): Promise<Page<AuditInstance>>;
  /** Instances the user is a member of, newest first (ties by id). */
  abstract listForMember(organizationId: string, userId: string, page: PageRequest): Promise<Page<AuditInstance>>;
  /**
   * Every instance the user can reach, newest first, with the user's membership of each, in one read:
   * the organisation's instances when `organizationWide`, else the user's memberships.
   */
  abstract listAccessible(organizationId: string, userId: string, organizationWide: boolean): Promise<{ instance: AuditInstance; membership: Membership | null }[]>;
  /** Sets the step only if it is still `expected` (a concurrent change wins); true when updated. */
  abstract compareAndSetStep(id: string, expected: InstanceStep, next: InstanceStep, at: Date): Promise<boolean>;
  abstract setStep(id: string, step: InstanceStep, at: Date): Promise<void>;
  abstract setConfiguration(id: string, configuration: InstanceConfiguration, at: Date): Promise<void>;
}

export abstract class MembershipRepository {
  abstract get(instanceId: string, userId: string): Promise<Membership | null>;
  /** Oldest member first (ties by user id), so a page is stable while members are added. */
  abstract list(instanceId: string, page: PageRequest): Promise<Page<Membership>>;
  abstract upsert(membership: Membership): Promise<void>;
  abstract remove(instanceId: string, userId: string): Promise<void>;
  abstract countAdmins(instanceId: string): Promise<number>;
}

/** The sealed credentials an audit instance uses to reach its repository instance's API. */
export abstract class RepositoryLinkStore {
  abstract save(instanceId: string, link: { svcInstanceId: string; apiKey: string }): Promise<void>;
  abstract get(instanceId: string): Promise<{ svcInstanceId: string; apiKey: string } | null>;
}

export interface DirectoryUser {
  id: string;
  name: string;
  email: string | null;
  roles: Role[];
  kind: 'person' | 'service';
}

/** Members of organisations, as the identity context knows them. */
export abstract class UserDirectory {
  abstract find(organizationId: string, userId: string): Promise<DirectoryUser | null>;
}

/** The repository side of an instance, as the repository context offers it. */
export abstract class RepositoryInstances {
  abstract create(organizationId: string, name: string): Promise<{ instanceId: string; apiKey: string }>;
  abstract pendingDocuments(instanceId: string): Promise<number>;
}
