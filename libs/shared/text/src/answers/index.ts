export * from './question-analysis.types';
export * from './question-profile';
export * from './segments';
export * from './extract-answers';
export * from './decide-question';
export * from './select-passages';
export * from './recommendations';
export * from './companion-questions';
