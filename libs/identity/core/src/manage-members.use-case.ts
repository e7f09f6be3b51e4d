import { Injectable } from '@nestjs/common';
import { ActivityLog, Clock, DomainError, IdGenerator, Page, PageRequest, Principal, Role, UnitOfWork } from '@svc/kernel';
import { User, userView } from './identity.model';
import { UserRepository } from './identity.ports';

/** Adds a person to the organisation. Email is unique within an organisation (case-insensitive). */
@Injectable()
export class CreateMember {
  constructor(
    private readonly users: UserRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly activity: ActivityLog,
  ) {}

  async execute(organizationId: string, input: { email: string; name: string; roles: Role[] }, actor: Principal | null) {
    const email = input.email.trim().toLowerCase();
    return this.uow.run(async () => {
      if (await this.users.findByEmail(organizationId, email)) {
        throw DomainError.conflict('IDENTITY.EMAIL_TAKEN', `A member with email ${email} already exists.`);
      }
      const user: User = { id: this.ids.next('usr_'), organizationId, email, name: input.name, roles: input.roles, kind: 'person', createdAt: this.clock.now() };
      await this.users.insert(user);
      await this.activity.record({ organizationId, instanceId: null, action: 'identity.member.create', subjectId: user.id, actor, before: null, after: userView(user) });
      return userView(user);
    });
  }
}

@Injectable()
export class ListMembers {
  constructor(private readonly users: UserRepository) {}
  async execute(actor: Principal, page: PageRequest): Promise<Page<ReturnType<typeof userView>>> {
    const result = await this.users.list(actor.organizationId, page);
    return { ...result, items: result.items.map(userView) };
  }
}

/** Reads one member of the caller's organisation (used by other contexts to check a user exists). */
@Injectable()
export class GetMember {
  constructor(private readonly users: UserRepository) {}
  async execute(organizationId: string, userId: string): Promise<User | null> {
    return this.users.get(organizationId, userId);
  }
}
