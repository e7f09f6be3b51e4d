export * from './duplicate-cluster';
export * from './duplicates.ports';
export * from './duplicates.errors';
export * from './fingerprint';
export * from './identify.use-cases';
export * from './duplicates.use-cases';
