import { Injectable } from '@nestjs/common';
import { TypeOrmUnitOfWork } from '@svc/database';
import { SearchLogEntry, SearchLogRepository } from '@svc/repository-core';

interface LogRow {
  id: string;
  instance_id: string;
  query: string;
  user_id: string;
  answer_text: string;
  got_answer: boolean;
  confident_rate: number;
  created_at: Date;
}

const toEntry = (r: LogRow): SearchLogEntry => ({ id: r.id, instanceId: r.instance_id, query: r.query, userId: r.user_id, answerText: r.answer_text, gotAnswer: r.got_answer, confidentRate: Number(r.confident_rate), createdAt: r.created_at });

@Injectable()
export class TypeOrmSearchLogRepository extends SearchLogRepository {
  constructor(private readonly uow: TypeOrmUnitOfWork) {
    super();
  }

  async insert(e: SearchLogEntry): Promise<void> {
    await this.uow.manager().query(
      `INSERT INTO repository.search_logs (id, instance_id, query, user_id, answer_text, got_answer, confident_rate, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [e.id, e.instanceId, e.query, e.userId, e.answerText, e.gotAnswer, e.confidentRate, e.createdAt],
    );
  }

  async count(instanceId: string, options: { from?: Date; to?: Date; answeredOnly?: boolean }): Promise<number> {
    const where = ['instance_id = $1'];
    const params: unknown[] = [instanceId];
    if (options.from) where.push(`created_at >= $${params.push(options.from)}`);
    if (options.to) where.push(`created_at < $${params.push(options.to)}`);
    if (options.answeredOnly) where.push('got_answer');
    const rows: { n: string }[] = await this.uow.manager().query(`SELECT count(*) AS n FROM repository.search_logs WHERE ${where.join(' AND ')}`, params);
    return Number(rows[0]?.n ?? 0);
  }

  async list(instanceId: string, offset: number, limit: number): Promise<SearchLogEntry[]> {
    const rows: LogRow[] = await this.uow.manager().query(`SELECT * FROM repository.search_logs WHERE instance_id = $1 ORDER BY created_at ASC, id ASC OFFSET $2 LIMIT $3`, [instanceId, offset, limit]);
    return rows.map(toEntry);
  }

  async since(instanceId: string, from: Date, limit: number): Promise<SearchLogEntry[]> {
    const rows: LogRow[] = await this.uow
      .manager()
      .query(`SELECT * FROM (SELECT * FROM repository.search_logs WHERE instance_id = $1 AND created_at >= $2 ORDER BY created_at DESC, id DESC LIMIT $3) newest ORDER BY created_at ASC, id ASC`, [instanceId, from, limit]);
    return rows.map(toEntry);
  }
}
