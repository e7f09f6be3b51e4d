import { DomainError } from '@svc/kernel';
import type { FullAuditState } from './full-audit-conflict';
import { FullAuditMove, statesAllowingFullAudit } from './full-audit.states';

export const fullAuditConflictNotFound = (conflictId: string) => DomainError.notFound('FULL_AUDIT.NOT_FOUND', `Full-audit conflict ${conflictId} does not exist.`);

export const forbiddenFullAuditMove = (conflictId: string, move: FullAuditMove, state: FullAuditState) =>
  DomainError.conflict('FULL_AUDIT.INVALID_TRANSITION', `Full-audit conflict ${conflictId} is ${state}: ${move} is allowed only from ${statesAllowingFullAudit(move).join(', ')}.`, {
    hint: state === 'DISAPPEARED' ? 'The latest scan no longer finds this contradiction: there is nothing left to resolve.' : undefined,
  });

export const concurrentFullAuditEdit = (conflictId: string) =>
  DomainError.conflict('FULL_AUDIT.CONCURRENT_EDIT', `Full-audit conflict ${conflictId} was changed by another request or a scan meanwhile; nothing was saved.`, {
    hint: 'Read the conflict again (audit_full_audit_conflict_get) and repeat the change if it still applies.',
  });
