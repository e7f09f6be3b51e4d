import { Injectable } from '@nestjs/common';
import type { Principal } from '@svc/kernel';
import { AuditInstanceAccess, DocumentVisibility, GetDocumentOwners } from '@svc/workspace-core';
import { QuestionConflictRepository } from './conflicts.ports';

export const TOP_COLLABORATORS = 3;

/**
 * Up to three other members ranked by the open question conflicts they share with the caller through
 * owned documents (BEHAVIOUR.md §3), most shared first, ties by user id; `[]` for admins, who own nothing.
 */
@Injectable()
export class GetTopCollaborators {
  constructor(
    private readonly conflicts: QuestionConflictRepository,
    private readonly visibility: DocumentVisibility,
    private readonly owners: GetDocumentOwners,
  ) {}

  async execute(input: { principal: Principal; access: AuditInstanceAccess }): Promise<{ user_id: string; shared_conflict_count: number }[]> {
    if (input.access.isAdmin) return [];
    const me = input.principal.userId;
    // Owned documents, whether or not the owner flag narrows what the caller sees.
    const visible = await this.visibility.visibleTo({ ...input.access, instance: { ...input.access.instance, configuration: { ...input.access.instance.configuration, need_detect_owner_document_feature: true } } }, me);
    const mine = visible === 'all' ? [] : visible;
    if (mine.length === 0) return [];
    const shared = await this.conflicts.touching(input.access.instanceId, mine, ['OPEN']);
    const owners = await this.owners.execute(input.access.instanceId, shared.flatMap((c) => c.documentIds));
    const counts = new Map<string, number>();
    for (const conflict of shared) {
      const others = new Set(conflict.documentIds.map((id) => owners.get(id)).filter((u): u is string => u !== undefined && u !== me));
      for (const user of others) counts.set(user, (counts.get(user) ?? 0) + 1);
    }
    return [...counts]
      .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
      .slice(0, TOP_COLLABORATORS)
      .map(([user_id, shared_conflict_count]) => ({ user_id, shared_conflict_count }));
  }
}
