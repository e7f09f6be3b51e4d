export * from './anthropic.language-model';
export * from './answer-prompt';
export * from './llm-settings';
export * from './llm.module';
export * from './local-extractive.language-model';
