import { Injectable } from '@nestjs/common';
import { ActivityEntry, ActivityLog, Clock, IdGenerator } from '@svc/kernel';
import { TypeOrmUnitOfWork } from './transaction-context';

/** Appends to `activity.entries` inside the caller's transaction. */
@Injectable()
export class TypeOrmActivityLog extends ActivityLog {
  constructor(
    private readonly uow: TypeOrmUnitOfWork,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {
    super();
  }

  async record(entry: ActivityEntry): Promise<void> {
    await this.uow.manager().query(
      `INSERT INTO activity.entries (id, organization_id, instance_id, action, subject_id, actor_user_id, credential_kind, credential_id, before, after, occurred_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        this.ids.next('act_'),
        entry.organizationId,
        entry.instanceId,
        entry.action,
        entry.subjectId,
        entry.actor?.userId ?? null,
        entry.actor?.credential.kind ?? null,
        entry.actor?.credential.id ?? null,
        entry.before === null || entry.before === undefined ? null : JSON.stringify(entry.before),
        entry.after === null || entry.after === undefined ? null : JSON.stringify(entry.after),
        this.clock.now(),
      ],
    );
  }
}
