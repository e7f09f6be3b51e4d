/** Test support of the LanguageModel port (`@svc/llm/testing`): its contract suite, and local servers that speak the Messages API and the chat-completions API. */
export * from './anthropic-messages.server';
export * from './chat-completions.server';
export * from './structured-call.fixture';
export * from './language-model.contract';
