export * from './api-client';
export * from './service-harness';
export * from './test-databases';
export * from './tcp-proxy';
export * from './document-fixtures';
export * from './http-credential-proxy';
export * from './browser';
export * from './wait-for';
