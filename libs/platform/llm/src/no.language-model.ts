import { DomainError, LanguageModel, StructuredResult } from '@svc/kernel';
import { LLM_NOT_CONFIGURED } from './structured-output';

/**
 * `LLM_PROVIDER=none` (the default): no language model. Capabilities see `configured: false` and use
 * their rule-based adapters; a call anyway is a clear 503, never a silent empty answer.
 */
export class NoLanguageModel extends LanguageModel {
  readonly name = 'none';
  readonly configured = false;

  complete<T>(): Promise<StructuredResult<T>> {
    return Promise.reject(DomainError.unavailable(LLM_NOT_CONFIGURED, 'No language model is configured (LLM_PROVIDER=none).'));
  }
}
