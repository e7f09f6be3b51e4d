import { Body, Controller } from '@nestjs/common';
import { ListDuplicateClusters, SetClusterManaged } from '@svc/duplicates-core';
import { AuditOperation, CurrentInstanceAccess, CurrentPrincipal } from '@svc/http';
import { pageRequest, Principal } from '@svc/kernel';
import type { AuditInstanceAccess } from '@svc/workspace-core';
import { DuplicateClusterInput, DuplicateListInput } from './duplicates.dto';

/** Duplicate clusters (`dup_`): the copies to merge or delete, and the expert's "done" with its verification. */
@Controller()
export class DuplicatesController {
  constructor(
    private readonly list: ListDuplicateClusters,
    private readonly setManaged: SetClusterManaged,
  ) {}

  @AuditOperation('audit_duplicate_list', {
    description:
      'Duplicate clusters, newest first: documents with the same canonical content (exact: true, similarity 1) or near-duplicates (word-shingle Jaccard similarity at or above the configured threshold), state DETECTED, MANAGED (verification queued) or RESOLVED. Non-admins see only clusters holding one of their documents when the owner flag is on.',
    input: DuplicateListInput,
  })
  listClusters(@Body() body: DuplicateListInput, @CurrentPrincipal() principal: Principal, @CurrentInstanceAccess() access: AuditInstanceAccess) {
    return this.list.execute({ principal, access, page: pageRequest(body.offset, body.limit) });
  }

  @AuditOperation('audit_duplicate_set_managed', {
    description: 'Mark a cluster MANAGED (from any state) once its copies were merged or deleted; a verification job then reads the repository again: RESOLVED when no two of its documents are still duplicates, back to DETECTED (with last_verification_at) otherwise.',
    input: DuplicateClusterInput,
  })
  managed(@Body() body: DuplicateClusterInput, @CurrentPrincipal() principal: Principal, @CurrentInstanceAccess() access: AuditInstanceAccess) {
    return this.setManaged.execute({ principal, access, clusterId: body.cluster_id });
  }
}
