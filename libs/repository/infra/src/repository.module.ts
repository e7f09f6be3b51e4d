import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig, deriveKey } from '@svc/config';
import { CountPendingDocuments, CreateRepositoryInstance, InstanceKeyHasher, RepositoryInstanceStore } from '@svc/repository-core';
import { HmacInstanceKeyHasher } from './hmac-instance-key-hasher';
import { TypeOrmRepositoryInstanceStore } from './typeorm-repository-instance.store';

/** The repository context (so far: instances and their keys). */
@Global()
@Module({
  providers: [
    { provide: RepositoryInstanceStore, useClass: TypeOrmRepositoryInstanceStore },
    { provide: InstanceKeyHasher, inject: [APP_CONFIG], useFactory: (c: AppConfig) => new HmacInstanceKeyHasher(deriveKey(c.authSecret, 'instance-key-pepper')) },
    CreateRepositoryInstance,
    CountPendingDocuments,
  ],
  exports: [CreateRepositoryInstance, CountPendingDocuments],
})
export class RepositoryModule {}
