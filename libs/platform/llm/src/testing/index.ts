/** Test support of the LLM adapters (`@svc/llm/testing`): a local server that speaks the Messages API, and the port's contract suite. */
export * from './anthropic-messages.server';
export * from './language-model.contract';
