export * from './ids';
export * from './domain-error';
export * from './pagination';
export * from './roles';
export * from './principal';
export * from './clock';
export * from './activity';
export * from './unit-of-work';
