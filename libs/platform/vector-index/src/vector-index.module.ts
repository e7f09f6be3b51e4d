import { DynamicModule, Global, Inject, Injectable, Logger, Module, OnApplicationBootstrap, Optional } from '@nestjs/common';
import { TypeOrmUnitOfWork } from '@svc/database';
import { Embedder, VectorIndex } from '@svc/kernel';
import { HnswSettings, PgVectorIndex } from './pg-vector-index';
import { createVectorIndex } from './vector-index.factory';

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
 * Provides the kernel's VectorIndex: PgVectorIndex when the migration made `embedding` a pgvector
 * column (PGlite, PostgreSQL with the extension), else ExactScanVectorIndex (`real[]`). Needs the
 * global DatabaseModule, whose migrations must include VECTOR_INDEX_MIGRATIONS.
 */
@Global()
@Module({})
export class VectorIndexModule {
  /** `hnsw`: the VECTOR_HNSW_* settings (pgvector only); pgvector's build defaults and ef_search 400 without. */
  static forRoot(hnsw?: HnswSettings): DynamicModule {
    return {
      module: VectorIndexModule,
      global: true,
      providers: [
        { provide: VectorIndex, inject: [TypeOrmUnitOfWork], useFactory: (uow: TypeOrmUnitOfWork) => createVectorIndex(uow, hnsw) },
        VectorIndexBootstrap,
      ],
      exports: [VectorIndex],
    };
  }
}
