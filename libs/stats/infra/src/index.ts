export * from './stats.module';
export * from './stats.read-model';
