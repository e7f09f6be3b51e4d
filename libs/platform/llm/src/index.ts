export * from './anthropic.language-model';
export * from './llm-settings';
export * from './llm.module';
export * from './no.language-model';
export * from './openai-compatible.language-model';
export * from './structured-output';
export * from './language-model.registry';
