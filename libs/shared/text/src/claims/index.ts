export * from './claims';
export * from './find-contradictions';
export * from './modality';
export * from './node-signature';
export * from './disagreements';
export * from './document-control';
