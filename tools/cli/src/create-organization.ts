import { CreateApiKey, CreateMember, OrganizationRepository } from '@svc/identity-core';
import { ActivityLog, Clock, DomainError, IdGenerator, Principal, UnitOfWork } from '@svc/kernel';

export interface CreateOrganizationInput {
  name: string;
  adminEmail: string;
  adminName: string;
}

/**
 * A further organisation with its first admin person and an admin key, in one transaction. A
 * tool-level composition of the identity use cases (the identity context has no such use case yet:
 * BootstrapInstallation makes only the first one). The raw key is returned once, never stored.
 */
export class CreateOrganization {
  constructor(
    private readonly organizations: OrganizationRepository,
    private readonly createMember: CreateMember,
    private readonly createKey: CreateApiKey,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly activity: ActivityLog,
  ) {}

  async execute(input: CreateOrganizationInput, actor: (organizationId: string) => Principal) {
    return this.uow.run(async () => {
      // BootstrapInstallation treats the oldest organisation as the installation's: an organisation
      // made before it would take that place, and the bootstrap one would be made after it anyway.
      if (!(await this.organizations.first())) {
        throw DomainError.conflict(
          'IDENTITY.NOT_INSTALLED',
          'The installation is not bootstrapped yet; run `bootstrap` (or start the service once) before creating further organisations.',
        );
      }
      const organization = { id: this.ids.next('org_'), name: input.name, createdAt: this.clock.now() };
      await this.organizations.insert(organization);
      const by = actor(organization.id);
      const view = { id: organization.id, name: organization.name, created_at: organization.createdAt.toISOString() };
      await this.activity.record({ organizationId: organization.id, instanceId: null, action: 'identity.organization.create', subjectId: organization.id, actor: by, before: null, after: view });
      const admin = await this.createMember.execute(organization.id, { email: input.adminEmail, name: input.adminName, roles: ['ADMIN'] }, by);
      const key = await this.createKey.execute(organization.id, { name: 'admin', roles: ['ADMIN'], userId: admin.id }, by);
      return {
        organization: view,
        admin_user: admin,
        admin_key: key,
      };
    });
  }
}
