/** Test support of the LLM transports (`@svc/llm/testing`): local servers that speak the Messages API and the chat-completions API. */
export * from './anthropic-messages.server';
export * from './chat-completions.server';
export * from './structured-call.fixture';
