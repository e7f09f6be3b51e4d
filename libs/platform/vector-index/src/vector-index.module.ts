import { DynamicModule, Global, Inject, Injectable, Logger, Module, OnApplicationBootstrap, Optional } from '@nestjs/common';
import { APP_CONFIG, AppConfig, createAdapter } from '@svc/config';
import { TypeOrmUnitOfWork } from '@svc/database';
import { Embedder, VectorIndex } from '@svc/kernel';
import { HnswSettings, PgVectorIndex } from './pg-vector-index';
import { VECTOR_STORES } from './vector-index.registry';

/**
 * At boot, creates the HNSW index of the configured Embedder's vector space (pgvector only), so the
 * usual first write of a fresh installation does not build it inside an indexation transaction.
 * Without an Embedder in the application, indexes are still created on each space's first write.
 */
@Injectable()
export class VectorIndexBootstrap implements OnApplicationBootstrap {
  private readonly logger = new Logger('VectorIndex');

  constructor(
    @Inject(VectorIndex) private readonly index: VectorIndex,
    @Optional() @Inject(Embedder) private readonly embedder?: Embedder,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!(this.index instanceof PgVectorIndex) || !this.embedder) return;
    try {
      await this.index.ensureHnswIndex(this.embedder.model, this.embedder.dimensions);
    } catch (error) {
      // Searches stay correct without the index (exact, slower); the next write retries its creation.
      this.logger.warn(`HNSW index for ${this.embedder.model} not created at boot: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/**
 * Provides the kernel's VectorIndex, chosen from VECTOR_STORE by its registry (`VECTOR_STORES`): `auto` (default)
 * is PgVectorIndex when the migration made `embedding` a pgvector column (PGlite, PostgreSQL with the extension),
 * else ExactScanVectorIndex (`real[]`); `pgvector` refuses to start without that column; `exact-scan` scans either.
 * Needs the global PlatformCoreModule (APP_CONFIG) and DatabaseModule, whose migrations must include
 * VECTOR_INDEX_MIGRATIONS.
 */
@Global()
@Module({})
export class VectorIndexModule {
  /** `hnsw`: HNSW settings instead of the VECTOR_HNSW_* variables (pgvector only). */
  static forRoot(hnsw?: HnswSettings): DynamicModule {
    return {
      module: VectorIndexModule,
      global: true,
      providers: [
        { provide: VectorIndex, inject: [TypeOrmUnitOfWork, APP_CONFIG], useFactory: (uow: TypeOrmUnitOfWork, config: AppConfig) => createAdapter(VECTOR_STORES, config, { uow, hnsw }) },
        VectorIndexBootstrap,
      ],
      exports: [VectorIndex],
    };
  }
}
