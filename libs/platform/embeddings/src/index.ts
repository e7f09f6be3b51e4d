export * from './embeddings-settings';
export * from './embeddings.module';
export * from './l2-normalize';
export * from './local-hashing.embedder';
export * from './openai-compatible.embedder';
export * from './embedder.registry';
