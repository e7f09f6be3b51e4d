import { DomainError } from '@svc/kernel';

export const otherUserForbidden = (userId: string) =>
  DomainError.forbidden('STATS.OTHER_USER', `Only admins of the instance may read the stats of another user (${userId}).`, {
    hint: 'Leave user_id out (or give your own id) to read your own stats.',
  });

export const statsUserNotFound = (userId: string, instanceId: string) => DomainError.notFound('STATS.USER_NOT_FOUND', `User ${userId} is not a member of audit instance ${instanceId}.`);
