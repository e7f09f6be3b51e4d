import { Body, Controller } from '@nestjs/common';
import { INSTANCE_VIEW, pageOf } from '@svc/contracts';
import { auditAccess, AuditOperation, CurrentInstanceAccess, CurrentPrincipal, DeclareOperation } from '@svc/http';
import { pageRequest, Principal } from '@svc/kernel';
import {
  AuditInstanceAccess,
  CountAuditDocuments,
  GetAuditDocumentsByIds,
  ListAuditDocuments,
  SetDocumentOwner,
  AddUserToInstance,
  CreateAuditInstance,
  GetInstance,
  GetSvcInstances,
  GetUsersForInstance,
  ListInstancesForUser,
  ListUserInstances,
  RemoveUserFromInstance,
  SetUserAdmin,
  SetUserNormal,
  UpdateConfiguration,
  UpdateInstanceStep,
  UserIsAdmin,
} from '@svc/workspace-core';
import {
  CountDocumentsInput,
  DocumentsByIdsInput,
  DocumentsWithStateInput,
  InstanceDocumentsListInput,
  SetDocumentOwnerInput,
  CreateInstanceInput,
  InstanceInput,
  InstanceUserInput,
  InstanceUsersInput,
  ListInstancesInput,
  UpdateConfigurationInput,
  UpdateStepInput,
  UserInstancesInput,
} from './workspace.dto';

/** Audit instances: records, step and configuration. */
@Controller()
export class InstanceController {
  constructor(
    private readonly create: CreateAuditInstance,
    private readonly list: ListInstancesForUser,
    private readonly get: GetInstance,
    private readonly svcInstances: GetSvcInstances,
    private readonly updateStep: UpdateInstanceStep,
    private readonly updateConfiguration: UpdateConfiguration,
  ) {}

  @DeclareOperation({
    name: 'audit_instance_create', output: INSTANCE_VIEW,
    path: '/audit/instance/create',
    description: 'Create a repository instance and the audit instance bound to it (extension: not in the 48 operations). The caller becomes its admin.',
    input: CreateInstanceInput,
    ...auditAccess('audit_instance_create'),
    mcp: false,
    surface: 'resource',
  })
  createInstance(@Body() body: CreateInstanceInput, @CurrentPrincipal() principal: Principal) {
    return this.create.execute(principal, { name: body.name });
  }

  @AuditOperation('audit_instance_list_for_user', { description: 'Audit instances the caller can access (raw records, no counters), newest first.', input: ListInstancesInput })
  listForUser(@Body() body: ListInstancesInput, @CurrentPrincipal() principal: Principal) {
    return this.list.execute(principal, pageRequest(body.offset, body.limit));
  }

  @AuditOperation('audit_instance_get', { description: 'One audit instance with its current step and configuration.', input: InstanceInput })
  getInstance(@Body() _body: InstanceInput, @CurrentPrincipal() _principal: Principal, @CurrentInstanceAccess() access: AuditInstanceAccess) {
    return this.get.execute(access);
  }

  @AuditOperation('audit_instance_get_svc_instances', { description: 'The linked repository instance and its instance API key ([] or one entry). Who may call it: ADMIN, or ACTIVATION_MANAGER admin of the instance (the key-management roles, and instance admin or global admin).', input: InstanceInput })
  getSvcInstances(@Body() _body: InstanceInput, @CurrentPrincipal() _principal: Principal, @CurrentInstanceAccess() access: AuditInstanceAccess) {
    return this.svcInstances.execute(access);
  }

  @AuditOperation('audit_instance_update_step', { description: 'Set the workflow step (reopen and recovery); restarts the background work of that step. Who may call it: a governance role (AUTHORITY_MANAGER or STEWARD) that is admin of the instance, or a global admin (ADMIN).', input: UpdateStepInput })
  setStep(@Body() body: UpdateStepInput, @CurrentPrincipal() principal: Principal, @CurrentInstanceAccess() access: AuditInstanceAccess) {
    return this.updateStep.execute(principal, access, body.step);
  }

  @AuditOperation('audit_instance_update_configuration', { description: 'Turn the document-owner visibility rule on or off.', input: UpdateConfigurationInput })
  setConfiguration(@Body() body: UpdateConfigurationInput, @CurrentPrincipal() principal: Principal, @CurrentInstanceAccess() access: AuditInstanceAccess) {
    return this.updateConfiguration.execute(principal, access, body.need_detect_owner_document_feature);
  }
}

/** Instance membership: who may work on an instance, and who administers it. */
@Controller()
export class InstanceUserController {
  constructor(
    private readonly users: GetUsersForInstance,
    private readonly userInstances: ListUserInstances,
    private readonly add: AddUserToInstance,
    private readonly remove: RemoveUserFromInstance,
    private readonly setAdmin: SetUserAdmin,
    private readonly setNormal: SetUserNormal,
    private readonly isAdmin: UserIsAdmin,
  ) {}

  @AuditOperation('audit_user_get_users', { description: 'Members of the instance with their instance role, oldest first.', input: InstanceUsersInput })
  getUsers(@Body() body: InstanceUsersInput, @CurrentPrincipal() principal: Principal, @CurrentInstanceAccess() access: AuditInstanceAccess) {
    return this.users.execute(principal, access, pageRequest(body.offset, body.limit));
  }

  @AuditOperation('audit_user_list_instances', { description: 'Audit instances a user can access; global admins may ask about any member, others only about themselves.', input: UserInstancesInput })
  listInstances(@Body() body: UserInstancesInput, @CurrentPrincipal() principal: Principal) {
    return this.userInstances.execute(principal, { userId: body.user_id, organizationId: body.organization_id }, pageRequest(body.offset, body.limit));
  }

  @AuditOperation('audit_user_add', { description: 'Add a member of the organisation to the instance as a regular user. Admins of the instance who hold a reading role, or global admins.', input: InstanceUserInput })
  addUser(@Body() body: InstanceUserInput, @CurrentPrincipal() principal: Principal, @CurrentInstanceAccess() access: AuditInstanceAccess) {
    return this.add.execute(principal, access, body.user_id);
  }

  @AuditOperation('audit_user_remove', { description: 'Remove a member from the instance (never its last admin). Admins of the instance who hold a reading role, or global admins.', input: InstanceUserInput })
  removeUser(@Body() body: InstanceUserInput, @CurrentPrincipal() principal: Principal, @CurrentInstanceAccess() access: AuditInstanceAccess) {
    return this.remove.execute(principal, access, body.user_id);
  }

  @AuditOperation('audit_user_set_admin', { description: 'Promote a member to instance admin. Admins of the instance who hold a reading role, or global admins.', input: InstanceUserInput })
  promote(@Body() body: InstanceUserInput, @CurrentPrincipal() principal: Principal, @CurrentInstanceAccess() access: AuditInstanceAccess) {
    return this.setAdmin.execute(principal, access, body.user_id);
  }

  @AuditOperation('audit_user_set_normal', { description: 'Demote an instance admin to regular member (never the last admin). Admins of the instance who hold a reading role, or global admins.', input: InstanceUserInput })
  demote(@Body() body: InstanceUserInput, @CurrentPrincipal() principal: Principal, @CurrentInstanceAccess() access: AuditInstanceAccess) {
    return this.setNormal.execute(principal, access, body.user_id);
  }

  @AuditOperation('audit_user_is_admin', { description: 'Whether the caller administers the instance; global admins always do. Any role may ask about an instance it belongs to.', input: InstanceInput })
  callerIsAdmin(@Body() _body: InstanceInput, @CurrentPrincipal() _principal: Principal, @CurrentInstanceAccess() access: AuditInstanceAccess) {
    return this.isAdmin.execute(access);
  }
}

/** Audit document records: the linked repository's documents with their owners (visibility rule applies). */
@Controller()
export class AuditDocumentController {
  constructor(
    private readonly list: ListAuditDocuments,
    private readonly setOwner: SetDocumentOwner,
    private readonly getByIds: GetAuditDocumentsByIds,
    private readonly count: CountAuditDocuments,
  ) {}

  @AuditOperation('audit_documents_list', { description: 'Documents of the linked repository with owner, extra properties and web URL, newest first; non-admins see only their own when the owner flag is on.', input: InstanceDocumentsListInput })
  listDocuments(@Body() body: InstanceDocumentsListInput, @CurrentPrincipal() principal: Principal, @CurrentInstanceAccess() access: AuditInstanceAccess) {
    return this.list.execute(principal, access, pageRequest(body.offset, body.limit));
  }

  @AuditOperation('audit_documents_set_owner', { description: 'Assign a document to a regular member of the instance, or unassign it (owner_user_id null or omitted). Admins of the instance who hold a reading role, or global admins; admins cannot own documents.', input: SetDocumentOwnerInput })
  setDocumentOwner(@Body() body: SetDocumentOwnerInput, @CurrentPrincipal() principal: Principal, @CurrentInstanceAccess() access: AuditInstanceAccess) {
    return this.setOwner.execute(principal, access, body.document_id, body.owner_user_id ?? null);
  }

  @AuditOperation('audit_documents_get_by_ids', { description: 'Name, URL and extra properties of up to 100 documents (document_ids); caches the resolved web_url.', input: DocumentsByIdsInput })
  getDocumentsByIds(@Body() body: DocumentsByIdsInput, @CurrentPrincipal() principal: Principal, @CurrentInstanceAccess() access: AuditInstanceAccess) {
    return this.getByIds.execute(principal, access, body.document_ids);
  }

  @AuditOperation('audit_documents_count', { description: 'Number of documents in the linked repository, optionally in one indexation state.', input: CountDocumentsInput })
  countDocuments(@Body() body: CountDocumentsInput, @CurrentPrincipal() principal: Principal, @CurrentInstanceAccess() access: AuditInstanceAccess) {
    return this.count.execute(principal, access, body.state);
  }

  @AuditOperation('audit_documents_list_with_state', { description: 'Documents in one indexation state (for example PARSING_ERROR), newest first.', input: DocumentsWithStateInput })
  listWithState(@Body() body: DocumentsWithStateInput, @CurrentPrincipal() principal: Principal, @CurrentInstanceAccess() access: AuditInstanceAccess) {
    return this.list.execute(principal, access, pageRequest(body.offset, body.limit), body.state);
  }
}

/** Served by the retrieval app (REST and MCP): the instances a caller may search. */
@Controller()
export class RetrievalInstancesController {
  constructor(private readonly list: ListInstancesForUser) {}

  @DeclareOperation({
    name: 'retrieval_instances_list', output: pageOf(INSTANCE_VIEW),
    path: '/retrieval/instances/list',
    description: 'Repository instances the caller can search (its audit instances, or all of the organisation for ADMIN and AUTHORITY_MANAGER), newest first.',
    input: ListInstancesInput,
    permission: 'retrieval',
    mcp: true,
    surface: 'resource',
  })
  instances(@Body() body: ListInstancesInput, @CurrentPrincipal() principal: Principal) {
    return this.list.execute(principal, pageRequest(body.offset, body.limit));
  }
}
