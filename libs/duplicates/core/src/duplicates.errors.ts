import { DomainError } from '@svc/kernel';

export const clusterNotFound = (clusterId: string) => DomainError.notFound('DUPLICATES.NOT_FOUND', `Duplicate cluster ${clusterId} does not exist.`);

export const concurrentClusterChange = (clusterId: string) =>
  DomainError.conflict('DUPLICATES.CONCURRENT_EDIT', `Duplicate cluster ${clusterId} was changed by another request or by the identification meanwhile; nothing was saved.`, {
    hint: 'List the clusters again (audit_duplicate_list) and repeat the change if it still applies.',
  });
