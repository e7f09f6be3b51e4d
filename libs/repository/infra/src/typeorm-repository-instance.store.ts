import { Injectable } from '@nestjs/common';
import { TypeOrmUnitOfWork } from '@svc/database';
import { InstanceApiKey, PENDING_INDEXATION_STATES, RepositoryInstance, RepositoryInstanceStore } from '@svc/repository-core';

@Injectable()
export class TypeOrmRepositoryInstanceStore extends RepositoryInstanceStore {
  constructor(private readonly uow: TypeOrmUnitOfWork) {
    super();
  }

  async insert(i: RepositoryInstance): Promise<void> {
    await this.uow.manager().query(`INSERT INTO repository.instances (id, organization_id, name, created_at) VALUES ($1, $2, $3, $4)`, [i.id, i.organizationId, i.name, i.createdAt]);
  }

  async get(id: string): Promise<RepositoryInstance | null> {
    const rows: { id: string; organization_id: string; name: string; created_at: Date }[] = await this.uow.manager().query(`SELECT * FROM repository.instances WHERE id = $1`, [id]);
    const r = rows[0];
    return r ? { id: r.id, organizationId: r.organization_id, name: r.name, createdAt: r.created_at } : null;
  }

  async insertApiKey(k: InstanceApiKey): Promise<void> {
    await this.uow.manager().query(
      `INSERT INTO repository.instance_api_keys (id, instance_id, name, lookup_id, secret_hash, created_at, revoked_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [k.id, k.instanceId, k.name, k.lookupId, k.secretHash, k.createdAt, k.revokedAt],
    );
  }

  async findApiKey(lookupId: string) {
    const rows: { id: string; instance_id: string; name: string; lookup_id: string; secret_hash: string; created_at: Date; revoked_at: Date | null; organization_id: string }[] = await this.uow
      .manager()
      .query(`SELECT k.*, i.organization_id FROM repository.instance_api_keys k JOIN repository.instances i ON i.id = k.instance_id WHERE k.lookup_id = $1 AND k.revoked_at IS NULL`, [lookupId]);
    const r = rows[0];
    return r ? { id: r.id, instanceId: r.instance_id, name: r.name, lookupId: r.lookup_id, secretHash: r.secret_hash, createdAt: r.created_at, revokedAt: r.revoked_at, organizationId: r.organization_id } : null;
  }

  async countPendingDocuments(instanceId: string): Promise<number> {
    const rows: { n: string }[] = await this.uow.manager().query(`SELECT count(*) AS n FROM repository.documents WHERE instance_id = $1 AND state = ANY($2)`, [instanceId, [...PENDING_INDEXATION_STATES]]);
    return Number(rows[0]?.n ?? 0);
  }
}
