import { Injectable } from '@nestjs/common';
import { Clock, IdGenerator, UnitOfWork } from '@svc/kernel';
import { parseApiKey } from './api-key-format';
import { ApiKeyRepository, OrganizationRepository } from './identity.ports';
import { CreateApiKey } from './manage-api-keys.use-case';
import { CreateMember } from './manage-members.use-case';
import { LoginAccountRepository, SetMemberPassword } from './sessions';

export interface BootstrapInput {
  organizationName: string;
  adminEmail: string;
  /** A well-formed `svc_org_` key to install as the admin key instead of a generated one. */
  adminApiKey?: string;
  /** Password of the admin person for the login page; set when the admin has none yet. */
  adminPassword?: string;
}

export interface BootstrapResult {
  /** True on the first start only. */
  installed: boolean;
  organizationId: string;
  /** The admin person created on the first start. */
  adminUserId?: string;
  /** The raw admin key when one was generated now; shown once, never stored in clear. */
  generatedAdminKey?: string;
}

/**
 * First start: one organisation, one admin person and one admin key. Safe to run on every start
 * and from several replicas at once; a configured admin key missing from the store is added.
 */
@Injectable()
export class BootstrapInstallation {
  constructor(
    private readonly organizations: OrganizationRepository,
    private readonly keys: ApiKeyRepository,
    private readonly createMember: CreateMember,
    private readonly createKey: CreateApiKey,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly accounts: LoginAccountRepository,
    private readonly setPassword: SetMemberPassword,
  ) {}

  async execute(input: BootstrapInput): Promise<BootstrapResult> {
    const result = await this.install(input);
    if (input.adminPassword) {
      const [admin] = (await this.accounts.findByEmail(input.adminEmail.trim().toLowerCase())).filter((a) => a.user.organizationId === result.organizationId);
      if (admin && !admin.passwordHash) await this.setPassword.execute(null, result.organizationId, admin.user.id, input.adminPassword);
    }
    return result;
  }

  private async install(input: BootstrapInput): Promise<BootstrapResult> {
    return this.uow.run(async () => {
      if (await this.organizations.claimInstallation()) {
        const organization = { id: this.ids.next('org_'), name: input.organizationName, createdAt: this.clock.now() };
        await this.organizations.insert(organization);
        const admin = await this.createMember.execute(organization.id, { email: input.adminEmail, name: 'Administrator', roles: ['ADMIN'] }, null);
        const key = await this.createKey.execute(organization.id, { name: 'bootstrap admin', roles: ['ADMIN'], userId: admin.id, rawKey: input.adminApiKey }, null);
        return { installed: true, organizationId: organization.id, adminUserId: admin.id, generatedAdminKey: input.adminApiKey ? undefined : key.api_key };
      }
      const organization = await this.organizations.first();
      if (!organization) throw new Error('Installation claimed but no organisation exists');
      const configured = input.adminApiKey ? parseApiKey(input.adminApiKey) : null;
      if (configured && !(await this.keys.findByLookupId(configured.lookupId))) {
        await this.createKey.execute(organization.id, { name: 'bootstrap admin', roles: ['ADMIN'], rawKey: input.adminApiKey }, null);
      }
      return { installed: false, organizationId: organization.id };
    });
  }
}
