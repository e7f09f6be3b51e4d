import { MigrationInterface, QueryRunner } from 'typeorm';

/** Every search-answer query, answered or not (`sl_`), for the search statistics. */
export class CreateSearchLogs1763700000700 implements MigrationInterface {
  name = 'CreateSearchLogs1763700000700';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE repository.search_logs (
      id text PRIMARY KEY,
      instance_id text NOT NULL REFERENCES repository.instances(id) ON DELETE CASCADE,
      query text NOT NULL,
      user_id text NOT NULL,
      answer_text text NOT NULL,
      got_answer boolean NOT NULL,
      confident_rate real NOT NULL,
      created_at timestamptz NOT NULL)`);
    await q.query(`CREATE INDEX search_logs_instance_time ON repository.search_logs (instance_id, created_at, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE repository.search_logs`);
  }
}
