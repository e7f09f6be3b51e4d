import { Injectable } from '@nestjs/common';
import { InstanceAccessReader, InstanceStanding } from '@svc/http';
import { GetMember } from '@svc/identity-core';
import { CountPendingDocuments, CreateRepositoryInstance } from '@svc/repository-core';
import { AuditInstanceRepository, DirectoryUser, RepositoryInstances, UserDirectory } from '@svc/workspace-core';

/** The identity context's members, through its public use case. */
@Injectable()
export class IdentityUserDirectory extends UserDirectory {
  constructor(private readonly getMember: GetMember) {
    super();
  }
  async find(organizationId: string, userId: string): Promise<DirectoryUser | null> {
    const user = await this.getMember.execute(organizationId, userId);
    return user ? { id: user.id, name: user.name, email: user.email, roles: user.roles, kind: user.kind } : null;
  }
}

/** The repository context of this deployment, through its public use cases. */
@Injectable()
export class LocalRepositoryInstances extends RepositoryInstances {
  constructor(
    private readonly createInstance: CreateRepositoryInstance,
    private readonly countPending: CountPendingDocuments,
  ) {
    super();
  }
  create(organizationId: string, name: string) {
    return this.createInstance.execute({ organizationId, name });
  }
  pendingDocuments(instanceId: string) {
    return this.countPending.execute(instanceId);
  }
}

/** What the HTTP guard needs to apply instance membership. */
@Injectable()
export class WorkspaceInstanceAccessReader extends InstanceAccessReader {
  constructor(private readonly instances: AuditInstanceRepository) {
    super();
  }
  async read(instanceId: string, userId: string): Promise<InstanceStanding | null> {
    const found = await this.instances.getWithMembership(instanceId, userId);
    if (!found) return null;
    return { organizationId: found.instance.organizationId, isMember: found.membership !== null, isInstanceAdmin: found.membership?.isAdmin ?? false, instance: found.instance };
  }
}
