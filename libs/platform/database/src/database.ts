import type { AppConfig } from '@svc/config';
import { DataSource } from 'typeorm';
import { dataSourceOptions, PersistenceParts, runMigrations } from './data-source';
import { EmbeddedPostgres } from './embedded-postgres';
import { TypeOrmUnitOfWork } from './transaction-context';

/** An open database: the DataSource, its unit of work, and whatever must be stopped with it. */
export class Database {
  private constructor(
    readonly dataSource: DataSource,
    readonly unitOfWork: TypeOrmUnitOfWork,
    readonly mode: 'postgres' | 'embedded',
    private readonly embedded?: EmbeddedPostgres,
  ) {}

  /** Connects (starting PGlite first in the embedded mode) and applies pending migrations. */
  static async open(
    config: Pick<AppConfig, 'DATABASE_URL' | 'DATABASE_POOL_SIZE' | 'databaseMode' | 'dataDir'>,
    parts: PersistenceParts,
  ): Promise<Database> {
    let embedded: EmbeddedPostgres | undefined;
    try {
      const connection = config.databaseMode === 'embedded' ? await (embedded = new EmbeddedPostgres(config.dataDir)).start() : undefined;
      const dataSource = new DataSource(dataSourceOptions(config, parts, connection));
      await dataSource.initialize();
      await runMigrations(dataSource, config.databaseMode === 'postgres');
      return new Database(dataSource, new TypeOrmUnitOfWork(dataSource), config.databaseMode, embedded);
    } catch (error) {
      await embedded?.stop();
      throw error;
    }
  }

  /** `SELECT 1` with a deadline: readiness probes must answer even when the database hangs. */
  async ping(timeoutMs = 2000): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const query = this.dataSource.query('SELECT 1').then(() => true);
      const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
      return await Promise.race([query, timeout]);
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    await this.embedded?.stop();
  }
}
