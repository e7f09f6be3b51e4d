export * from './stats';
export * from './stats.ports';
export * from './stats.errors';
export * from './stats.use-cases';
