export * from './missing-subjects.module';
export * from './missing-subjects.migration';
