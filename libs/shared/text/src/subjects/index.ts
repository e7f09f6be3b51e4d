/**
 * Missing subjects (ANALYSIS.md §5, BEHAVIOUR.md §7): question terms and TF-IDF vectors, average-linkage
 * clustering at a cosine-distance threshold with labels from the distinctive terms, storable subject
 * profiles that new questions join and answered ones leave, the rule-based companion document, and the
 * de-noising of unanswered searches. Pure: the service stores the profiles and statistics as JSON.
 */
export * from './clustering';
export * from './companion-document';
export * from './constants';
export * from './labels';
export * from './searches';
export * from './subject-profile';
export * from './terms';
export * from './vectors';
