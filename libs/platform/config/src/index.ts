export * from './app-config';
export * from './config.module';
export * from './secret-box';
export * from './settings-reader';
export * from './adapter-settings';
