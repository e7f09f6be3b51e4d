/**
 * The text algorithms several contexts share (ANALYSIS.md §1): pure functions, no I/O, no framework.
 * Folding and words, English and French stop words, Snowball stemming, language detection, sentence
 * splitting, and typed values with canonical keys.
 */
export * from './fold';
export * from './language';
export * from './sentences';
export * from './stem';
export * from './stopwords';
export * from './negation';
export * from './names';
export * from './numbers';
export * from './values';
export * from './answers';
export * from './claims';
export * from './duplicates';
export * from './subjects';
