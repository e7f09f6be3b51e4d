export * from './missing-subject';
export * from './missing-subjects.use-cases';
