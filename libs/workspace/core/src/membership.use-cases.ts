import { Injectable } from '@nestjs/common';
import { ActivityLog, Clock, DomainError, isGlobalAdmin, Page, PageRequest, Principal, standingRefusal, UnitOfWork } from '@svc/kernel';
import { AuditInstanceAccess, InstanceView, Membership } from './audit-instance';
import { ListInstancesForUser } from './instance.use-cases';
import { MembershipRepository, UserDirectory } from './workspace.ports';

export interface InstanceUserView {
  user_id: string;
  name: string;
  email: string | null;
  is_admin: boolean;
  added_at: string;
}

const memberNotFound = (userId: string, instanceId: string) => DomainError.notFound('WORKSPACE.MEMBER_NOT_FOUND', `User ${userId} is not a member of audit instance ${instanceId}.`);

/** Shared check of the membership commands: the user is in the caller's organisation. */
@Injectable()
export class MembershipGuards {
  constructor(private readonly users: UserDirectory) {}

  async user(principal: Principal, userId: string) {
    const user = await this.users.find(principal.organizationId, userId);
    if (!user) throw DomainError.notFound('IDENTITY.USER_NOT_FOUND', `User ${userId} does not exist in your organisation.`);
    return user;
  }
}

@Injectable()
export class GetUsersForInstance {
  constructor(
    private readonly members: MembershipRepository,
    private readonly users: UserDirectory,
  ) {}

  async execute(principal: Principal, access: AuditInstanceAccess, page: PageRequest): Promise<Page<InstanceUserView>> {
    const result = await this.members.list(access.instanceId, page);
    const items = await Promise.all(
      result.items.map(async (m) => {
        const user = await this.users.find(principal.organizationId, m.userId);
        return { user_id: m.userId, name: user?.name ?? '', email: user?.email ?? null, is_admin: m.isAdmin, added_at: m.addedAt.toISOString() };
      }),
    );
    return { ...result, items };
  }
}

/** Instances a user can access. Global admins may ask about anyone in their organisation, others only about themselves. */
@Injectable()
export class ListUserInstances {
  constructor(
    private readonly guards: MembershipGuards,
    private readonly listForUser: ListInstancesForUser,
  ) {}

  async execute(principal: Principal, input: { userId: string; organizationId: string }, page: PageRequest): Promise<Page<InstanceView>> {
    if (input.organizationId !== principal.organizationId) {
      throw DomainError.notFound('IDENTITY.ORGANIZATION_NOT_FOUND', `Organisation ${input.organizationId} does not exist.`);
    }
    if (input.userId !== principal.userId && !isGlobalAdmin(principal.roles)) {
      throw DomainError.forbidden('WORKSPACE.OTHER_USER', 'You may only list your own instances.');
    }
    if (input.userId === principal.userId) return this.listForUser.execute(principal, page);
    const user = await this.guards.user(principal, input.userId);
    return this.listForUser.execute({ ...principal, userId: user.id, roles: user.roles }, page);
  }
}

@Injectable()
abstract class MembershipCommand {
  constructor(
    protected readonly guards: MembershipGuards,
    protected readonly members: MembershipRepository,
    protected readonly clock: Clock,
    protected readonly uow: UnitOfWork,
    protected readonly activity: ActivityLog,
  ) {}

  protected async change(principal: Principal, instanceId: string, userId: string, action: string, decide: (current: Membership | null) => Promise<Membership | null | 'unchanged'>): Promise<true> {
    return this.uow.run(async (): Promise<true> => {
      const current = await this.members.get(instanceId, userId);
      const next = await decide(current);
      if (next === 'unchanged') return true;
      if (next) await this.members.upsert(next);
      else await this.members.remove(instanceId, userId);
      await this.activity.record({ organizationId: principal.organizationId, instanceId, action, subjectId: userId, actor: principal, before: current && view(current), after: next && view(next) });
      return true;
    });
  }

  protected async refuseLastAdmin(instanceId: string, current: Membership): Promise<void> {
    if (current.isAdmin && (await this.members.countAdmins(instanceId)) <= 1) {
      throw DomainError.conflict('WORKSPACE.LAST_ADMIN', 'An instance keeps at least one admin; promote another member first.');
    }
  }
}

const view = (m: Membership) => ({ user_id: m.userId, is_admin: m.isAdmin });

/** Adds a user of the organisation as a regular member; adding an existing member changes nothing. */
@Injectable()
export class AddUserToInstance extends MembershipCommand {
  execute(principal: Principal, access: AuditInstanceAccess, userId: string): Promise<true> {
    const { instanceId } = access;
    return this.change(principal, instanceId, userId, 'audit_user_add', async (current) => {
      await this.guards.user(principal, userId);
      return current ? 'unchanged' : { instanceId, userId, isAdmin: false, addedAt: this.clock.now() };
    });
  }
}

@Injectable()
export class RemoveUserFromInstance extends MembershipCommand {
  execute(principal: Principal, access: AuditInstanceAccess, userId: string): Promise<true> {
    const { instanceId } = access;
    return this.change(principal, instanceId, userId, 'audit_user_remove', async (current) => {
      if (!current) throw memberNotFound(userId, instanceId);
      await this.refuseLastAdmin(instanceId, current);
      return null;
    });
  }
}

@Injectable()
export class SetUserAdmin extends MembershipCommand {
  execute(principal: Principal, access: AuditInstanceAccess, userId: string): Promise<true> {
    const { instanceId } = access;
    return this.change(principal, instanceId, userId, 'audit_user_set_admin', async (current) => {
      if (!current) throw memberNotFound(userId, instanceId);
      return current.isAdmin ? 'unchanged' : { ...current, isAdmin: true };
    });
  }
}

@Injectable()
export class SetUserNormal extends MembershipCommand {
  execute(principal: Principal, access: AuditInstanceAccess, userId: string): Promise<true> {
    const { instanceId } = access;
    return this.change(principal, instanceId, userId, 'audit_user_set_normal', async (current) => {
      if (!current) throw memberNotFound(userId, instanceId);
      if (!current.isAdmin) return 'unchanged';
      await this.refuseLastAdmin(instanceId, current);
      return { ...current, isAdmin: false };
    });
  }
}

/** Whether the caller administers the instance; global admins always do. */
@Injectable()
export class UserIsAdmin {
  execute(access: AuditInstanceAccess): boolean {
    return access.isAdmin;
  }
}

/**
 * Where another user of the organisation stands on an instance: null when they cannot reach it (not
 * in the organisation, or neither a member nor holder of an organisation-wide role); `isAdmin` for
 * instance admins and global admins (who see everything, BEHAVIOUR.md §3).
 */
@Injectable()
export class GetMemberStanding {
  constructor(
    private readonly members: MembershipRepository,
    private readonly users: UserDirectory,
  ) {}

  async execute(access: AuditInstanceAccess, userId: string): Promise<{ isAdmin: boolean } | null> {
    const user = await this.users.find(access.organizationId, userId);
    if (!user) return null;
    const membership = await this.members.get(access.instanceId, userId);
    const standing = { isMember: membership !== null, isInstanceAdmin: membership?.isAdmin ?? false };
    if (standingRefusal('member', user.roles, standing)) return null;
    return { isAdmin: isGlobalAdmin(user.roles) || standing.isInstanceAdmin };
  }
}
