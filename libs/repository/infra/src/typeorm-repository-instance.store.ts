import { Injectable } from '@nestjs/common';
import { selectPage, TypeOrmUnitOfWork } from '@svc/database';
import type { Page, PageRequest } from '@svc/kernel';
import { InstanceApiKey, PENDING_INDEXATION_STATES, RepositoryInstance, RepositoryInstanceStore } from '@svc/repository-core';

interface ApiKeyRow {
  id: string;
  instance_id: string;
  name: string;
  lookup_id: string;
  secret_hash: string;
  created_at: Date;
  revoked_at: Date | null;
}

const toApiKey = (r: ApiKeyRow): InstanceApiKey => ({ id: r.id, instanceId: r.instance_id, name: r.name, lookupId: r.lookup_id, secretHash: r.secret_hash, createdAt: r.created_at, revokedAt: r.revoked_at });

@Injectable()
export class TypeOrmRepositoryInstanceStore extends RepositoryInstanceStore {
  constructor(private readonly uow: TypeOrmUnitOfWork) {
    super();
  }

  private q<T>(sql: string, params: unknown[]): Promise<T[]> {
    return this.uow.manager().query(sql, params);
  }

  async insert(i: RepositoryInstance): Promise<void> {
    await this.q(`INSERT INTO repository.instances (id, organization_id, name, created_at) VALUES ($1, $2, $3, $4)`, [i.id, i.organizationId, i.name, i.createdAt]);
  }

  async get(id: string): Promise<RepositoryInstance | null> {
    const rows = await this.q<{ id: string; organization_id: string; name: string; created_at: Date }>(`SELECT * FROM repository.instances WHERE id = $1`, [id]);
    const r = rows[0];
    return r ? { id: r.id, organizationId: r.organization_id, name: r.name, createdAt: r.created_at } : null;
  }

  async insertApiKey(k: InstanceApiKey): Promise<void> {
    await this.q(
      `INSERT INTO repository.instance_api_keys (id, instance_id, name, lookup_id, secret_hash, created_at, revoked_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [k.id, k.instanceId, k.name, k.lookupId, k.secretHash, k.createdAt, k.revokedAt],
    );
  }

  async findApiKey(lookupId: string) {
    const rows = await this.q<ApiKeyRow & { organization_id: string }>(
      `SELECT k.*, i.organization_id FROM repository.instance_api_keys k JOIN repository.instances i ON i.id = k.instance_id WHERE k.lookup_id = $1 AND k.revoked_at IS NULL`,
      [lookupId],
    );
    const r = rows[0];
    return r ? { ...toApiKey(r), organizationId: r.organization_id } : null;
  }

  async getApiKey(instanceId: string, id: string): Promise<InstanceApiKey | null> {
    const [row] = await this.q<ApiKeyRow>(`SELECT * FROM repository.instance_api_keys WHERE id = $1 AND instance_id = $2`, [id, instanceId]);
    return row ? toApiKey(row) : null;
  }

  async listApiKeys(instanceId: string, page: PageRequest): Promise<Page<InstanceApiKey>> {
    return selectPage((sql, params) => this.q(sql, params), { from: 'FROM repository.instance_api_keys WHERE instance_id = $1', orderBy: 'created_at DESC, id DESC', params: [instanceId] }, page, toApiKey);
  }

  async revokeApiKey(id: string, at: Date): Promise<boolean> {
    // Through a CTE so the driver returns rows (ADR 0012); the guard on revoked_at keeps the first time.
    const rows = await this.q<{ id: string }>(
      `WITH changed AS (UPDATE repository.instance_api_keys SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL RETURNING id) SELECT id FROM changed`,
      [id, at],
    );
    return rows.length > 0;
  }

  async countPendingDocuments(instanceId: string): Promise<number> {
    const rows = await this.q<{ n: string }>(`SELECT count(*) AS n FROM repository.documents WHERE instance_id = $1 AND state = ANY($2)`, [instanceId, [...PENDING_INDEXATION_STATES]]);
    return Number(rows[0]?.n ?? 0);
  }
}
