import { Injectable } from '@nestjs/common';
import { SecretBox } from '@svc/config';
import { selectPage, TypeOrmUnitOfWork } from '@svc/database';
import type { Page, PageRequest } from '@svc/kernel';
import {
  AuditInstance,
  AuditInstanceRepository,
  InstanceConfiguration,
  InstanceStep,
  Membership,
  MembershipRepository,
  RepositoryLinkStore,
} from '@svc/workspace-core';

interface InstanceRow {
  id: string;
  organization_id: string;
  name: string;
  step: InstanceStep;
  configuration: InstanceConfiguration;
  created_at: Date;
  updated_at: Date;
  total?: string;
}

const toInstance = (r: InstanceRow): AuditInstance => ({
  id: r.id,
  organizationId: r.organization_id,
  name: r.name,
  step: r.step,
  configuration: r.configuration,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** An instance row joined to one user's membership (`MEMBER_COLUMNS`, null when they are not a member). */
type InstanceWithMemberRow = InstanceRow & { member_is_admin: boolean | null; member_added_at: Date | null };
const MEMBER_COLUMNS = 'm.is_admin AS member_is_admin, m.added_at AS member_added_at';
const INSTANCE_COLUMNS = 'i.id, i.organization_id, i.name, i.step, i.configuration, i.created_at, i.updated_at';

function withMembership(row: InstanceWithMemberRow, userId: string): { instance: AuditInstance; membership: Membership | null } {
  const membership = row.member_is_admin === null || row.member_added_at === null ? null : { instanceId: row.id, userId, isAdmin: row.member_is_admin, addedAt: row.member_added_at };
  return { instance: toInstance(row), membership };
}

@Injectable()
export class TypeOrmAuditInstanceRepository extends AuditInstanceRepository {
  constructor(private readonly uow: TypeOrmUnitOfWork) {
    super();
  }

  private q<T>(sql: string, params: unknown[]): Promise<T[]> {
    return this.uow.manager().query(sql, params);
  }

  async insert(i: AuditInstance): Promise<void> {
    await this.q(`INSERT INTO workspace.audit_instances (id, organization_id, name, step, configuration, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [i.id, i.organizationId, i.name, i.step, JSON.stringify(i.configuration), i.createdAt, i.updatedAt]);
  }

  async get(id: string): Promise<AuditInstance | null> {
    const [row] = await this.q<InstanceRow>(`SELECT * FROM workspace.audit_instances WHERE id = $1`, [id]);
    return row ? toInstance(row) : null;
  }

  async getWithMembership(id: string, userId: string): Promise<{ instance: AuditInstance; membership: Membership | null } | null> {
    // Every audit operation reads this (its access): a prepared statement.
    const [row] = await this.uow.prepared<InstanceWithMemberRow>(
      `SELECT ${INSTANCE_COLUMNS}, ${MEMBER_COLUMNS}
         FROM workspace.audit_instances i
         LEFT JOIN workspace.instance_members m ON m.instance_id = i.id AND m.user_id = $2
        WHERE i.id = $1`,
      [id, userId],
    );
    return row ? withMembership(row, userId) : null;
  }

  async listForOrganization(organizationId: string, page: PageRequest): Promise<Page<AuditInstance>> {
    return selectPage((sql, params) => this.q(sql, params), { from: 'FROM workspace.audit_instances WHERE organization_id = $1', orderBy: 'created_at DESC, id DESC', params: [organizationId] }, page, toInstance);
  }

  async listForMember(organizationId: string, userId: string, page: PageRequest): Promise<Page<AuditInstance>> {
    return selectPage(
      (sql, params) => this.q(sql, params),
      {
        select: 'i.*',
        from: 'FROM workspace.audit_instances i JOIN workspace.instance_members m ON m.instance_id = i.id WHERE i.organization_id = $1 AND m.user_id = $2',
        orderBy: 'i.created_at DESC, i.id DESC',
        params: [organizationId, userId],
      },
      page,
      toInstance,
    );
  }

  async listAccessible(organizationId: string, userId: string, organizationWide: boolean): Promise<{ instance: AuditInstance; membership: Membership | null }[]> {
    const rows = await this.q<InstanceWithMemberRow>(
      `SELECT i.*, ${MEMBER_COLUMNS}
         FROM workspace.audit_instances i
         ${organizationWide ? 'LEFT ' : ''}JOIN workspace.instance_members m ON m.instance_id = i.id AND m.user_id = $2
        WHERE i.organization_id = $1
        ORDER BY i.created_at DESC, i.id DESC`,
      [organizationId, userId],
    );
    return rows.map((row) => withMembership(row, userId));
  }

  async compareAndSetStep(id: string, expected: InstanceStep, next: InstanceStep, at: Date): Promise<boolean> {
    // A CTE, because TypeORM answers a bare UPDATE ... RETURNING with [rows, count] instead of rows.
    const rows = await this.q<{ id: string }>(
      `WITH updated AS (UPDATE workspace.audit_instances SET step = $3, updated_at = $4, version = version + 1 WHERE id = $1 AND step = $2 RETURNING id) SELECT id FROM updated`,
      [id, expected, next, at],
    );
    return rows.length === 1;
  }

  async setStep(id: string, step: InstanceStep, at: Date): Promise<void> {
    await this.q(`UPDATE workspace.audit_instances SET step = $2, updated_at = $3, version = version + 1 WHERE id = $1`, [id, step, at]);
  }

  async setConfiguration(id: string, configuration: InstanceConfiguration, at: Date): Promise<void> {
    await this.q(`UPDATE workspace.audit_instances SET configuration = $2, updated_at = $3, version = version + 1 WHERE id = $1`, [id, JSON.stringify(configuration), at]);
  }
}

interface MemberRow {
  instance_id: string;
  user_id: string;
  is_admin: boolean;
  added_at: Date;
  total?: string;
}
const toMember = (r: MemberRow): Membership => ({ instanceId: r.instance_id, userId: r.user_id, isAdmin: r.is_admin, addedAt: r.added_at });

@Injectable()
export class TypeOrmMembershipRepository extends MembershipRepository {
  constructor(private readonly uow: TypeOrmUnitOfWork) {
    super();
  }

  private q<T>(sql: string, params: unknown[]): Promise<T[]> {
    return this.uow.manager().query(sql, params);
  }

  async get(instanceId: string, userId: string): Promise<Membership | null> {
    const [row] = await this.q<MemberRow>(`SELECT * FROM workspace.instance_members WHERE instance_id = $1 AND user_id = $2`, [instanceId, userId]);
    return row ? toMember(row) : null;
  }

  async list(instanceId: string, page: PageRequest): Promise<Page<Membership>> {
    return selectPage((sql, params) => this.q(sql, params), { from: 'FROM workspace.instance_members WHERE instance_id = $1', orderBy: 'added_at ASC, user_id ASC', params: [instanceId] }, page, toMember);
  }

  async upsert(m: Membership): Promise<void> {
    await this.q(
      `INSERT INTO workspace.instance_members (instance_id, user_id, is_admin, added_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (instance_id, user_id) DO UPDATE SET is_admin = EXCLUDED.is_admin`,
      [m.instanceId, m.userId, m.isAdmin, m.addedAt],
    );
  }

  async remove(instanceId: string, userId: string): Promise<void> {
    await this.q(`DELETE FROM workspace.instance_members WHERE instance_id = $1 AND user_id = $2`, [instanceId, userId]);
  }

  /** Locks the instance's admin rows so two concurrent demotions cannot both see "another admin left". */
  async countAdmins(instanceId: string): Promise<number> {
    const rows = await this.q<{ user_id: string }>(`SELECT user_id FROM workspace.instance_members WHERE instance_id = $1 AND is_admin FOR UPDATE`, [instanceId]);
    return rows.length;
  }
}

@Injectable()
export class SealedRepositoryLinkStore extends RepositoryLinkStore {
  constructor(
    private readonly uow: TypeOrmUnitOfWork,
    private readonly box: SecretBox,
  ) {
    super();
  }

  async save(instanceId: string, link: { svcInstanceId: string; apiKey: string }): Promise<void> {
    await this.uow.manager().query(
      `INSERT INTO workspace.repository_links (instance_id, svc_instance_id, api_key_sealed) VALUES ($1, $2, $3)
       ON CONFLICT (instance_id) DO UPDATE SET svc_instance_id = EXCLUDED.svc_instance_id, api_key_sealed = EXCLUDED.api_key_sealed`,
      [instanceId, link.svcInstanceId, this.box.seal(link.apiKey)],
    );
  }

  async get(instanceId: string): Promise<{ svcInstanceId: string; apiKey: string } | null> {
    const rows: { svc_instance_id: string; api_key_sealed: string }[] = await this.uow.manager().query(`SELECT * FROM workspace.repository_links WHERE instance_id = $1`, [instanceId]);
    const row = rows[0];
    return row ? { svcInstanceId: row.svc_instance_id, apiKey: this.box.open(row.api_key_sealed) } : null;
  }
}
