import { Injectable, Optional } from '@nestjs/common';
import { assertScope, auditInstanceNotFound, DomainError, instanceAccessOf, InstanceAccess, Principal, requiredScope, rolesAllow, standingRefusal } from '@svc/kernel';
import { InstanceAccessReader } from './access.ports';
import type { OperationDefinition } from './operation.decorator';
import { assertBodyWasRead, validateInput } from './validation';

/** What an admitted call carries to its handler: the validated input, and the instance access when the operation names one. */
export interface AdmittedCall {
  input: object;
  access?: InstanceAccess;
}

/**
 * Applies the role matrix (BEHAVIOUR.md §3, ADR 0028) to one call, in this order: the role table and scopes (no lookup), then the
 * body's validation (an unknown or ill-typed field is a 400 before anything is read), then, for an
 * instance-scoped operation, the caller's standing on the instance, read once. Used by the REST guard
 * and by MCP tools, so both transports refuse the same calls the same way and hand the same access on.
 */
@Injectable()
export class OperationAuthorizer {
  constructor(@Optional() private readonly instances?: InstanceAccessReader) {}

  /** `http`: the body comes from an HTTP request, where `undefined` means no JSON parser read it (refused), not "no arguments". */
  async admit(principal: Principal, operation: OperationDefinition, body: unknown, options: { http?: boolean } = {}): Promise<AdmittedCall> {
    if (!rolesAllow(principal.roles, operation.permission)) {
      throw DomainError.forbidden('AUTH.ROLE_NOT_ALLOWED', `Your roles do not allow ${operation.name}.`);
    }
    assertScope(principal, requiredScope(operation.name, operation.permission));
    if (options.http) assertBodyWasRead(body);
    const input = await validateInput(operation.input, body);
    if (!operation.instanceField) return { input };
    const instanceId = (input as Record<string, unknown>)[operation.instanceField];
    if (typeof instanceId !== 'string') {
      // The DTO made the field optional; the operation then acts on no particular instance.
      return { input };
    }
    return { input, access: await this.accessTo(principal, instanceId, operation) };
  }

  /** The caller's access to an instance: 404 when it is unknown or another organisation's, 403 when the caller may not act on it. */
  async accessTo(principal: Principal, instanceId: string, operation: Pick<OperationDefinition, 'instanceAdmin' | 'name'>): Promise<InstanceAccess> {
    if (!this.instances) throw new Error(`${operation.name} is instance-scoped but this app has no InstanceAccessReader`);
    const standing = await this.instances.read(instanceId, principal.userId);
    if (!standing || standing.organizationId !== principal.organizationId) {
      throw auditInstanceNotFound(instanceId);
    }
    const refusal = standingRefusal(operation.instanceAdmin ? 'admin' : 'member', principal.roles, standing);
    if (refusal === 'WORKSPACE.NOT_A_MEMBER') {
      throw DomainError.forbidden(refusal, `You are not a member of audit instance ${instanceId}.`);
    }
    if (refusal === 'WORKSPACE.INSTANCE_ADMIN_ONLY') {
      throw DomainError.forbidden(refusal, `${operation.name} is reserved to admins of the instance.`);
    }
    return instanceAccessOf(principal.roles, { instanceId, organizationId: standing.organizationId, isMember: standing.isMember, isInstanceAdmin: standing.isInstanceAdmin, instance: standing.instance });
  }
}
