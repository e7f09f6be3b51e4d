export * from './claims';
export * from './find-contradictions';
