export * from './create-repository-instance.use-case';
export * from './repository-instance';
export * from './repository.ports';
