import { applyDecorators, HttpCode, Post, SetMetadata, Type } from '@nestjs/common';
import { AUDIT_OPERATIONS, AUDIT_RESPONSES, AuditOperationName, JsonSchema } from '@svc/contracts';
import { AUDIT_ACCESS, AuditExtensionName, Permission } from '@svc/kernel';

/** The surface a route belongs to decides which credentials it accepts (SECURITY.md). */
export type Surface = 'resource' | 'platform' | 'instance';

export interface OperationDefinition {
  /** Operation name; for audit operations also the MCP tool name. */
  name: string;
  path: string;
  description: string;
  /** Request body class (class-validator); the REST body schema and the MCP input schema. */
  input: Type<object>;
  /** JSON Schema of the `response` the operation returns on success (the catalogue's response shape). */
  output: JsonSchema;
  permission: Permission;
  /** Body field holding the audit instance id the caller must be able to access, if any. */
  instanceField?: string;
  /** Instance admin (or global admin) only, in addition to the role check. */
  instanceAdmin?: boolean;
  mcp: boolean;
  surface: Surface;
  /** No credential: documented without security in OpenAPI (the route also carries @Public()). */
  public?: boolean;
}

export const OPERATION_METADATA = 'svc:operation';
export const PUBLIC_METADATA = 'svc:public';
export const RAW_RESPONSE_METADATA = 'svc:raw-response';

const catalogue = new Map<string, OperationDefinition>();

/** Every operation declared so far (decorators run when their controller module loads). */
export function declaredOperations(): OperationDefinition[] {
  return [...catalogue.values()];
}

type OperationOptions = Pick<OperationDefinition, 'description' | 'input'>;

/**
 * Who may call an audit operation, from the role matrix `AUDIT_ACCESS` (kernel, ADR 0028): its
 * permission class, and for an instance-scoped one the body field `instance_id` and whether the
 * caller must administer the instance. Never restated on a controller.
 */
export function auditAccess(name: AuditOperationName | AuditExtensionName): Pick<OperationDefinition, 'permission' | 'instanceField' | 'instanceAdmin'> {
  const rule = AUDIT_ACCESS[name];
  if (!rule) throw new Error(`Operation ${name} has no access rule in AUDIT_ACCESS (@svc/kernel)`);
  if (rule.instance === 'none') return { permission: rule.permission };
  return { permission: rule.permission, instanceField: 'instance_id', instanceAdmin: rule.instance === 'admin' };
}

/**
 * Declares an audit operation once: path and MCP flag come from the spec's table in
 * `@svc/contracts`, who may call it from the role matrix in `@svc/kernel`; this adds the body class
 * and the description. REST route, OpenAPI and the MCP tool are all derived from the result.
 */
export function AuditOperation(name: AuditOperationName, options: OperationOptions): MethodDecorator {
  const { path, mcp } = AUDIT_OPERATIONS[name];
  const output = AUDIT_RESPONSES[name];
  if (!output) throw new Error(`Operation ${name} has no response shape in AUDIT_RESPONSES (@svc/contracts)`);
  return DeclareOperation({ name, path, mcp, surface: 'resource', output, ...options, ...auditAccess(name) });
}

/** Declares an operation outside the audit table (platform, retrieval, admin). */
export function DeclareOperation(definition: OperationDefinition): MethodDecorator {
  if (catalogue.has(definition.name) && catalogue.get(definition.name)?.path !== definition.path) {
    throw new Error(`Operation ${definition.name} declared twice with different paths`);
  }
  catalogue.set(definition.name, definition);
  return applyDecorators(Post(definition.path), HttpCode(200), SetMetadata(OPERATION_METADATA, definition));
}

/** No credential needed (health, JWKS, token exchange, OpenAPI). */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(PUBLIC_METADATA, true);

/** The handler's return value is the body as is, without the `{ response }` envelope. */
export const RawResponse = (): MethodDecorator & ClassDecorator => SetMetadata(RAW_RESPONSE_METADATA, true);
