import { IsPrefixedId, PaginationInput } from '@svc/http';

export class DuplicateListInput extends PaginationInput {
  @IsPrefixedId('ki_')
  instance_id!: string;
}

export class DuplicateClusterInput {
  @IsPrefixedId('ki_')
  instance_id!: string;

  @IsPrefixedId('dup_')
  cluster_id!: string;
}
