export * from './claims';
export * from './find-contradictions';
export * from './modality';
