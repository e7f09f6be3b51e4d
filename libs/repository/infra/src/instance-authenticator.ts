import { Injectable } from '@nestjs/common';
import { InstanceAuthenticator } from '@svc/http';
import type { Principal } from '@svc/kernel';
import { AuthenticateInstanceKey } from '@svc/repository-core';

/** The HTTP guard's instance API credential check, through the repository's use case. */
@Injectable()
export class RepositoryInstanceAuthenticator extends InstanceAuthenticator {
  constructor(private readonly useCase: AuthenticateInstanceKey) {
    super();
  }
  authenticate(instanceId: string | undefined, apiKey: string | undefined): Promise<Principal> {
    return this.useCase.execute(instanceId, apiKey);
  }
}
