import { Injectable } from '@nestjs/common';
import { Query, queryOf, TypeOrmUnitOfWork } from '@svc/database';
import type { LanguageModelUsage } from '@svc/kernel';
import { CachedStatement, DiscoveryVerdict, DiscoveryVerdicts, ScanModelLedger, ScanModelUsage, StatementCache, StatementCacheKey, statementCacheKey } from '@svc/full-audit-core';

@Injectable()
export class TypeOrmStatementCache extends StatementCache {
  private readonly q: Query;

  constructor(uow: TypeOrmUnitOfWork) {
    super();
    this.q = queryOf(uow);
  }

  async get(instanceId: string, keys: StatementCacheKey[]): Promise<Map<string, CachedStatement[]>> {
    if (keys.length === 0) return new Map();
    const rows = await this.q<{ extractor: string; content_hash: string; statements: CachedStatement[] }>(
      `SELECT c.extractor, c.content_hash, c.statements FROM full_audit.statement_cache c JOIN unnest($2::text[], $3::text[]) AS k(extractor, content_hash)
         ON c.extractor = k.extractor AND c.content_hash = k.content_hash WHERE c.instance_id = $1`,
      [instanceId, keys.map((k) => k.extractor), keys.map((k) => k.contentHash)],
    );
    return new Map(rows.map((r) => [statementCacheKey({ extractor: r.extractor, contentHash: r.content_hash }), r.statements]));
  }

  async keepOnly(instanceId: string, extractor: string): Promise<number> {
    const rows = await this.q<{ content_hash: string }>(
      `WITH gone AS (DELETE FROM full_audit.statement_cache WHERE instance_id = $1 AND extractor <> $2 RETURNING content_hash) SELECT content_hash FROM gone`,
      [instanceId, extractor],
    );
    return rows.length;
  }

  async put(instanceId: string, entries: (StatementCacheKey & { statements: CachedStatement[] })[], at: Date): Promise<void> {
    if (entries.length === 0) return;
    const unique = [...new Map(entries.map((e) => [statementCacheKey(e), e])).values()];
    await this.q(
      `INSERT INTO full_audit.statement_cache (instance_id, extractor, content_hash, statements, read_at)
       SELECT $1, e, h, s::jsonb, $5 FROM unnest($2::text[], $3::text[], $4::text[]) AS t(e, h, s)
       ON CONFLICT (instance_id, extractor, content_hash) DO UPDATE SET statements = EXCLUDED.statements, read_at = EXCLUDED.read_at`,
      [instanceId, unique.map((e) => e.extractor), unique.map((e) => e.contentHash), unique.map((e) => JSON.stringify(e.statements)), at],
    );
  }
}

@Injectable()
export class TypeOrmDiscoveryVerdicts extends DiscoveryVerdicts {
  /** A verdict's documents compared by content only (the part of a claims version after its last colon), as `atVersions` does. */
  async forgetStale(instanceId: string): Promise<number> {
    const rows = await this.q<{ fingerprint: string }>(
      `WITH gone AS (DELETE FROM full_audit.model_verdicts v WHERE v.instance_id = $1 AND EXISTS (
         SELECT 1 FROM jsonb_each_text(v.content_hashes) h
           LEFT JOIN full_audit.document_claims d ON d.instance_id = v.instance_id AND d.document_id = h.key
          WHERE d.document_id IS NULL OR regexp_replace(d.content_hash, '^.*:', '') <> regexp_replace(h.value, '^.*:', ''))
       RETURNING v.fingerprint) SELECT fingerprint FROM gone`,
      [instanceId],
    );
    return rows.length;
  }

  private readonly q: Query;

  constructor(uow: TypeOrmUnitOfWork) {
    super();
    this.q = queryOf(uow);
  }

  async of(instanceId: string, fingerprints: string[]): Promise<Map<string, { verdict: DiscoveryVerdict; contentHashes: Record<string, string> }>> {
    if (fingerprints.length === 0) return new Map();
    const rows = await this.q<{ fingerprint: string; contradiction: boolean; title: string; explanation: string; question: string; content_hashes: Record<string, string> }>(
      `SELECT fingerprint, contradiction, title, explanation, question, content_hashes FROM full_audit.model_verdicts WHERE instance_id = $1 AND fingerprint = ANY($2)`,
      [instanceId, fingerprints],
    );
    return new Map(rows.map((r) => [r.fingerprint, { verdict: { contradiction: r.contradiction, title: r.title, explanation: r.explanation, question: r.question }, contentHashes: r.content_hashes }]));
  }

  async record(instanceId: string, verdicts: { fingerprint: string; verdict: DiscoveryVerdict; contentHashes: Record<string, string> }[], at: Date): Promise<void> {
    if (verdicts.length === 0) return;
    const unique = [...new Map(verdicts.map((v) => [v.fingerprint, v])).values()];
    await this.q(
      `INSERT INTO full_audit.model_verdicts (instance_id, fingerprint, contradiction, title, explanation, question, content_hashes, judged_at)
       SELECT $1, f, c, t, e, q, h::jsonb, $8 FROM unnest($2::text[], $3::boolean[], $4::text[], $5::text[], $6::text[], $7::text[]) AS u(f, c, t, e, q, h)
       ON CONFLICT (instance_id, fingerprint) DO UPDATE SET contradiction = EXCLUDED.contradiction, title = EXCLUDED.title, explanation = EXCLUDED.explanation,
         question = EXCLUDED.question, content_hashes = EXCLUDED.content_hashes, judged_at = EXCLUDED.judged_at`,
      [
        instanceId,
        unique.map((v) => v.fingerprint),
        unique.map((v) => v.verdict.contradiction),
        unique.map((v) => v.verdict.title),
        unique.map((v) => v.verdict.explanation),
        unique.map((v) => v.verdict.question),
        unique.map((v) => JSON.stringify(v.contentHashes)),
        at,
      ],
    );
  }
}

@Injectable()
export class TypeOrmScanModelLedger extends ScanModelLedger {
  private readonly q: Query;

  constructor(uow: TypeOrmUnitOfWork) {
    super();
    this.q = queryOf(uow);
  }

  /** One statement: two workers reserving the last call of a budget cannot both get it. */
  async reserve(scanId: string, budget: number): Promise<boolean> {
    const rows = await this.q<{ id: string }>(
      `WITH taken AS (UPDATE full_audit.scans SET model_calls = model_calls + 1 WHERE id = $1 AND model_stopped IS NULL AND ($2::int = 0 OR model_calls < $2::int) RETURNING id) SELECT id FROM taken`,
      [scanId, budget],
    );
    if (rows.length === 1) return true;
    await this.q(`UPDATE full_audit.scans SET model_stopped = 'budget' WHERE id = $1 AND model_stopped IS NULL AND $2::int > 0 AND model_calls >= $2::int`, [scanId, budget]);
    return false;
  }

  async spent(scanId: string, usage: LanguageModelUsage): Promise<void> {
    await this.q(`UPDATE full_audit.scans SET model_input_tokens = model_input_tokens + $2, model_output_tokens = model_output_tokens + $3 WHERE id = $1`, [scanId, usage.inputTokens, usage.outputTokens]);
  }

  async stop(scanId: string, reason: 'budget' | 'outage'): Promise<void> {
    await this.q(`UPDATE full_audit.scans SET model_stopped = $2 WHERE id = $1 AND model_stopped IS NULL`, [scanId, reason]);
  }

  async reserveDay(instanceId: string, day: string, budget: number): Promise<boolean> {
    const rows = await this.q<{ calls: number }>(
      `WITH taken AS (INSERT INTO full_audit.model_budget_days (instance_id, day, calls) VALUES ($1, $2::date, 1)
         ON CONFLICT (instance_id, day) DO UPDATE SET calls = full_audit.model_budget_days.calls + 1 WHERE full_audit.model_budget_days.calls < $3::int
         RETURNING calls) SELECT calls FROM taken`,
      [instanceId, day, budget],
    );
    return rows.length === 1;
  }

  async spentDay(instanceId: string, day: string, usage: LanguageModelUsage): Promise<void> {
    await this.q(`UPDATE full_audit.model_budget_days SET input_tokens = input_tokens + $3, output_tokens = output_tokens + $4 WHERE instance_id = $1 AND day = $2::date`, [instanceId, day, usage.inputTokens, usage.outputTokens]);
  }

  async stoppedByOutage(before: Date): Promise<string[]> {
    const rows = await this.q<{ instance_id: string }>(
      `SELECT s.instance_id FROM full_audit.scans s
        WHERE s.model_stopped = 'outage' AND s.state = 'COMPLETED' AND s.finished_at < $1
          AND NOT EXISTS (SELECT 1 FROM full_audit.scans t WHERE t.instance_id = s.instance_id AND t.started_at > s.started_at)`,
      [before],
    );
    return rows.map((r) => r.instance_id);
  }

  async usage(scanId: string): Promise<ScanModelUsage> {
    const [row] = await this.q<{ model_calls: number; model_input_tokens: string; model_output_tokens: string; model_stopped: ScanModelUsage['stopped'] }>(
      `SELECT model_calls, model_input_tokens, model_output_tokens, model_stopped FROM full_audit.scans WHERE id = $1`,
      [scanId],
    );
    return row ? { calls: row.model_calls, inputTokens: Number(row.model_input_tokens), outputTokens: Number(row.model_output_tokens), stopped: row.model_stopped } : { calls: 0, inputTokens: 0, outputTokens: 0, stopped: null };
  }
}
