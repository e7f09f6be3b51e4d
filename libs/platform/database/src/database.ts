import type { AppConfig } from '@svc/config';
import { DataSource } from 'typeorm';
import { dataSourceOptions, PersistenceParts, runMigrations } from './data-source';
import { EmbeddedPostgres } from './embedded-postgres';
import { TypeOrmUnitOfWork } from './transaction-context';

/** How often the embedded database refreshes its planner statistics (PGlite has no autovacuum daemon). */
export const EMBEDDED_ANALYZE_INTERVAL_MS = 10 * 60_000;

/** An open database: the DataSource, its unit of work, and whatever must be stopped with it. */
export class Database {
  private maintenance?: NodeJS.Timeout;
  private analyzing?: Promise<void>;

  private constructor(
    readonly dataSource: DataSource,
    readonly unitOfWork: TypeOrmUnitOfWork,
    readonly mode: 'postgres' | 'embedded',
    private readonly embedded?: EmbeddedPostgres,
  ) {}

  /**
   * Connects (starting PGlite first in the embedded mode) and applies pending migrations. The embedded
   * database then runs `ANALYZE` at once and every `analyzeIntervalMs`: PostgreSQL's autovacuum keeps
   * planner statistics current, PGlite has none, and without statistics the planner picks nested loops
   * that cost seconds on a few thousand rows (the stats read model measured 1 s instead of 25 ms).
   */
  static async open(
    config: Pick<AppConfig, 'DATABASE_URL' | 'DATABASE_POOL_SIZE' | 'databaseMode' | 'dataDir'>,
    parts: PersistenceParts,
    options: { analyzeIntervalMs?: number } = {},
  ): Promise<Database> {
    let embedded: EmbeddedPostgres | undefined;
    try {
      const connection = config.databaseMode === 'embedded' ? await (embedded = EmbeddedPostgres.forDataDir(config.dataDir)).start() : undefined;
      const dataSource = new DataSource(dataSourceOptions(config, parts, connection));
      await dataSource.initialize();
      await runMigrations(dataSource, config.databaseMode === 'postgres');
      const database = new Database(dataSource, new TypeOrmUnitOfWork(dataSource), config.databaseMode, embedded);
      if (embedded) database.keepStatistics(options.analyzeIntervalMs ?? EMBEDDED_ANALYZE_INTERVAL_MS);
      return database;
    } catch (error) {
      await embedded?.stop();
      throw error;
    }
  }

  /**
   * `SELECT 1` with a deadline: readiness probes must answer even when the database hangs. It runs as a plain
   * query and as a named prepared statement, the way the hot reads run, so readiness says down when those fail.
   */
  async ping(timeoutMs = 2000): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const query = Promise.all([this.dataSource.query('SELECT 1'), this.unitOfWork.prepared('SELECT 1 AS ready', [])]).then(() => true);
      const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
      return await Promise.race([query, timeout]);
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Refreshes the planner statistics now (on the embedded mode's timer). */
  private analyze(): Promise<void> {
    // One at a time: a slow ANALYZE is not stacked under the next tick.
    this.analyzing ??= this.dataSource
      .query('ANALYZE')
      .then(() => undefined)
      .catch(() => undefined)
      .finally(() => (this.analyzing = undefined));
    return this.analyzing;
  }

  private keepStatistics(intervalMs: number): void {
    void this.analyze();
    this.maintenance = setInterval(() => void this.analyze(), intervalMs);
    this.maintenance.unref();
  }

  async close(): Promise<void> {
    clearInterval(this.maintenance);
    await this.analyzing;
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    await this.embedded?.stop();
  }
}
