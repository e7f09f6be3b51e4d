import { Injectable, Optional } from '@nestjs/common';
import { assertScope, DomainError, isGlobalAdmin, isId, ORGANIZATION_WIDE_ROLES, Principal, requiredScope, rolesAllow } from '@svc/kernel';
import { InstanceAccessReader } from './access.ports';
import type { OperationDefinition } from './operation.decorator';

/**
 * Applies BEHAVIOUR.md §3 to one call: the role table for the operation's permission class, then
 * the caller's standing on the instance the body names. Used by the REST guard and by MCP tools,
 * so both transports refuse the same calls the same way.
 */
@Injectable()
export class OperationAuthorizer {
  constructor(@Optional() private readonly instances?: InstanceAccessReader) {}

  async authorize(principal: Principal, operation: OperationDefinition, body: unknown): Promise<void> {
    if (!rolesAllow(principal.roles, operation.permission)) {
      throw DomainError.forbidden('AUTH.ROLE_NOT_ALLOWED', `Your roles do not allow ${operation.name}.`);
    }
    assertScope(principal, requiredScope(operation.name, operation.permission));
    if (!operation.instanceField) return;
    const instanceId = (body as Record<string, unknown> | undefined)?.[operation.instanceField];
    // A malformed id is reported by validation, which runs next, as a 400 naming the field.
    if (!isId('ki_', instanceId)) return;
    await this.authorizeInstance(principal, instanceId, operation);
  }

  async authorizeInstance(principal: Principal, instanceId: string, operation: Pick<OperationDefinition, 'instanceAdmin' | 'name'>): Promise<void> {
    if (!this.instances) throw new Error(`${operation.name} is instance-scoped but this app has no InstanceAccessReader`);
    const access = await this.instances.read(instanceId, principal.userId);
    if (!access || access.organizationId !== principal.organizationId) {
      throw DomainError.notFound('WORKSPACE.INSTANCE_NOT_FOUND', `Audit instance ${instanceId} does not exist.`);
    }
    const globalAdmin = isGlobalAdmin(principal.roles);
    const organizationWide = principal.roles.some((r) => ORGANIZATION_WIDE_ROLES.includes(r));
    if (!access.isMember && !globalAdmin && !organizationWide) {
      throw DomainError.forbidden('WORKSPACE.NOT_A_MEMBER', `You are not a member of audit instance ${instanceId}.`);
    }
    if (operation.instanceAdmin && !globalAdmin && !access.isInstanceAdmin) {
      throw DomainError.forbidden('WORKSPACE.INSTANCE_ADMIN_ONLY', `${operation.name} is reserved to admins of the instance.`);
    }
  }
}
