export * from './missing-subject';
export * from './missing-subjects.use-cases';
export * from './companion-writer';
