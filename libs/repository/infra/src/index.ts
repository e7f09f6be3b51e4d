export * from './repository.migration';
export * from './repository.module';
export * from './typeorm-repository-instance.store';
