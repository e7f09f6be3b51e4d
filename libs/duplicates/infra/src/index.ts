export * from './duplicates.module';
export * from './duplicates.migration';
