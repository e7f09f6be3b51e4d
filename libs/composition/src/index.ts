export * from './app-modules';
export * from './persistence';
export * from './readiness';
export * from './run';
export * from './adapter-registries';
