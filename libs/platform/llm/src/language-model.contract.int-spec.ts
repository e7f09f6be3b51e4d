import { Logger } from '@nestjs/common';
import { AnthropicLanguageModel } from './anthropic.language-model';
import { NoLanguageModel } from './no.language-model';
import { OpenAiCompatibleLanguageModel } from './openai-compatible.language-model';
import { FakeAnthropicMessagesServer } from './testing/anthropic-messages.server';
import { FakeChatCompletionsServer } from './testing/chat-completions.server';
import { languageModelContract, ModelBehaviour, OVERLOADED_RETRY_AFTER_SECONDS } from './testing/language-model.contract';
import { readDelay } from './testing/structured-call.fixture';

const KEY = 'sk-contract-0123456789abcdef';
const muteAccounting = () => Logger.overrideLogger(false);

languageModelContract('NoLanguageModel (LLM_PROVIDER=none)', { notConfigured: 'no model is configured: every call is LLM.NOT_CONFIGURED', noBatches: 'no model, no batches' }, async () => ({
  model: new NoLanguageModel(),
}));

languageModelContract('AnthropicLanguageModel (local Messages API server)', { attempts: 2 }, async () => {
  muteAccounting();
  const server = new FakeAnthropicMessagesServer();
  const baseUrl = await server.start();
  const replies: Record<ModelBehaviour, () => (typeof server.script)[number]> = {
    malformed: () => ({ toolInput: { days: 'thirty', unit: 'days', quote: '30 days' } }),
    refusal: () => 'refusal',
    overloaded: () => FakeAnthropicMessagesServer.overloaded(OVERLOADED_RETRY_AFTER_SECONDS),
  };
  const modelAt = (url: string) => new AnthropicLanguageModel({ apiKey: KEY, baseUrl: url, model: 'claude-sonnet-4-6', timeoutMs: 2000, maxRetries: 1 });
  return {
    model: modelAt(baseUrl),
    modelAt,
    script: (...next) => server.script.push(...next.map((b) => replies[b]())),
    requests: () => server.requests.filter((r) => r.path === '/v1/messages').length,
    reset: () => {
      server.reset();
      server.respond = (_body, text) => readDelay(text);
    },
    secrets: [KEY, baseUrl],
    close: () => server.stop(),
  };
});

languageModelContract('OpenAiCompatibleLanguageModel (local chat-completions server)', { attempts: 2, noBatches: 'chat completions have no batch API' }, async () => {
  muteAccounting();
  const server = new FakeChatCompletionsServer();
  const baseUrl = await server.start();
  const replies: Record<ModelBehaviour, () => (typeof server.script)[number]> = {
    malformed: () => ({ content: 'The delay is thirty days.' }),
    refusal: () => 'refusal',
    overloaded: () => FakeChatCompletionsServer.rateLimited(OVERLOADED_RETRY_AFTER_SECONDS),
  };
  const modelAt = (url: string) =>
    new OpenAiCompatibleLanguageModel({ baseUrl: url, model: 'qwen3-8b', apiKey: KEY, timeoutMs: 2000, maxRetries: 1, retryBaseDelayMs: 5, retryMaxDelayMs: 50 });
  return {
    model: modelAt(baseUrl),
    modelAt,
    script: (...next) => server.script.push(...next.map((b) => replies[b]())),
    requests: () => server.requests.length,
    reset: () => {
      server.reset();
      server.respond = (_body, text) => readDelay(text);
    },
    secrets: [KEY, baseUrl],
    close: () => server.stop(),
  };
});

afterAll(() => Logger.overrideLogger(['log', 'error', 'warn', 'debug', 'verbose']));
