/** Test support of the Embedder port (`@svc/embeddings/testing`): the contract suite and a local OpenAI-compatible embeddings server. */
export * from './embedder.contract';
export * from './openai-embeddings.server';
