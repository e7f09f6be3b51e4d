import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DomainError, isDomainError, LanguageModel, StructuredCall, StructuredResult } from '@svc/kernel';
import { contractTest, domainErrorOf } from '@svc/kernel/testing';
import { Delay, DELAY_OUTPUT, delayCall, readDelay } from './structured-call.fixture';

/**
 * The Retry-After (seconds) the fixture's server asks for when it answers `overloaded`. Not 5, the default of
 * `DomainError.unavailable`: an adapter that drops the provider's Retry-After reports 5 and fails the contract.
 */
export const OVERLOADED_RETRY_AFTER_SECONDS = 2;

/**
 * How the fixture's model server answers one request:
 * - `malformed`: a reply that is not the schema's JSON (prose, or JSON of another shape);
 * - `refusal`: the provider's refusal (a safety refusal of the model, not an HTTP error);
 * - `overloaded`: the provider's overload or rate-limit status (429, 529, 503...) asking, in the provider's own
 *   header, for a wait of `OVERLOADED_RETRY_AFTER_SECONDS` (HTTP `Retry-After: 2`).
 */
export type ModelBehaviour = 'malformed' | 'refusal' | 'overloaded';

/**
 * One adapter talking to a local server that speaks its provider's protocol. Unless scripted, the server's model
 * reads well: it answers `delayCall(text)` with `readDelay(text)` (the first "<n> days" of the text).
 */
export interface LanguageModelFixture {
  model: LanguageModel;
  /** Queues how the server answers its next requests, one behaviour per request, in order; then it reads well again. */
  script?(...next: ModelBehaviour[]): void;
  /** Requests the server received since the last reset. */
  requests?(): number;
  /** Forgets the script and the requests (before each test). */
  reset?(): void;
  /** Texts no error may carry: the key, the base URL. */
  secrets?: string[];
  /**
   * The same adapter, configured as `model` is, but for another base URL: the contract gives one where nothing
   * listens (a closed port on 127.0.0.1) and expects `LLM.UNAVAILABLE`, never a raw network error.
   */
  modelAt?(baseUrl: string): LanguageModel;
  close?(): Promise<void>;
}

/** What the suite must know when it is declared: a test that does not apply is reported skipped, with the reason. */
export interface LanguageModelContractOptions {
  /** Why no call reaches a model (`configured: false`, the `none` provider); unset: the adapter is configured and talks to the fixture's server. */
  notConfigured?: string;
  /** Why the adapter has no message batches (`batches` is null); unset: it has them. */
  noBatches?: string;
  /** Attempts the adapter makes before it reports an outage (1 + its retries, as the fixture configured it); 2 by default. */
  attempts?: number;
}

/** A base URL where nothing listens: a port of 127.0.0.1 that was free a moment ago. */
async function closedBaseUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** What a call threw, as `{ name, kind, code }`: a raw SDK or network error shows its name and no code. */
async function failureOf(promise: Promise<unknown>): Promise<{ error: unknown; seen: { name: string; kind?: string; code?: string } }> {
  try {
    await promise;
  } catch (error) {
    const seen = isDomainError(error) ? { name: error.name, kind: error.kind, code: error.code } : { name: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
    return { error, seen };
  }
  throw new Error('expected the call to fail, but it answered');
}

const output = (result: StructuredResult<Delay>): Delay => {
  if (result.kind !== 'output') throw new Error(`expected an output, got ${result.kind}`);
  return result.output;
};

/**
 * What every LanguageModel adapter promises (kernel/language-model.ts), with what the capabilities and the jobs rely on:
 * - the output is validated against the call's schema, never returned otherwise; a malformed reply is asked again
 *   once, then is `LLM.INVALID_RESPONSE` (every capability answers that call with its rule-based adapter);
 * - a refusal is a `declined` result, not an error (the capability's rule-based adapter answers it);
 * - an outage that outlasts the adapter's retries is `unavailable` `LLM.UNAVAILABLE` with the Retry-After the
 *   provider asked for (the job retries then; search answers a 503 with it); a provider that cannot be reached at
 *   all is `LLM.UNAVAILABLE` too, a DomainError, never a raw network error; a malformed call (no message, a blank
 *   one, a bad output name) is `invalid` `LLM.INVALID_REQUEST` and is not sent;
 * - calls are independent (the same call may be sent again); errors never carry the key or the URL;
 * - `configured: false` only for the `none` provider, whose every call is `LLM.NOT_CONFIGURED`;
 * - batches, where the provider has them: results by call id once the batch has ended.
 * Run it from the adapter's spec: `languageModelContract(name, options, setup)` (`@svc/llm/testing`), with a local
 * server speaking the provider's protocol (see `FakeAnthropicMessagesServer`, `FakeChatCompletionsServer`).
 * Not checked here (each adapter's own spec does): silence and timeouts, 401/403/404 (`LLM.REQUEST_REFUSED`,
 * `unavailable`) and other 4xx (`internal`), the token accounting of retried calls.
 */
export function languageModelContract(name: string, options: LanguageModelContractOptions, setup: () => Promise<LanguageModelFixture>): void {
  describe(`LanguageModel contract: ${name}`, () => {
    let fixture: LanguageModelFixture;
    let model: LanguageModel;
    const configuredOnly = options.notConfigured;
    const script = (...next: ModelBehaviour[]) => {
      if (!fixture.script) throw new Error('the fixture cannot script its server: give it `script`');
      fixture.script(...next);
    };
    const requests = () => {
      if (!fixture.requests) throw new Error('the fixture does not count requests: give it `requests`');
      return fixture.requests();
    };
    const expectNoSecret = (error: unknown) => {
      const text = JSON.stringify({ message: (error as Error).message, hint: isDomainError(error) ? error.hint : undefined, errors: isDomainError(error) ? error.errors : undefined });
      for (const secret of fixture.secrets ?? []) expect(text).not.toContain(secret);
    };

    beforeAll(async () => {
      fixture = await setup();
      model = fixture.model;
    });
    afterAll(async () => {
      await fixture?.close?.();
    });
    beforeEach(() => fixture?.reset?.());

    it('names itself for the logs, and says whether a model is configured', () => {
      expect(typeof model.name).toBe('string');
      expect(model.name.trim().length).toBeGreaterThan(0);
      expect(model.configured).toBe(!options.notConfigured);
      if (!options.notConfigured) expect(model.name).not.toBe('none');
    });

    contractTest(configuredOnly, "answers a call with output matching the call's schema, the tokens it cost and the model's name", async () => {
      const result = await model.complete<Delay>(delayCall('Refunds are processed within 30 days of the request.'));
      expect(output(result)).toEqual(readDelay('Refunds are processed within 30 days of the request.'));
      expect(result.model).toBe(model.name);
      for (const tokens of [result.usage.inputTokens, result.usage.outputTokens]) expect(Number.isInteger(tokens) && tokens >= 0).toBe(true);
      expect(result.usage.inputTokens).toBeGreaterThan(0);
    });

    contractTest(configuredOnly, 'keeps calls independent: the same call sent again gives the same answer', async () => {
      const call = delayCall('Gift cards expire after 365 days.');
      const [first, second] = [await model.complete<Delay>(call), await model.complete<Delay>(call)];
      expect(output(second)).toEqual(output(first));
      expect(output(await model.complete<Delay>(delayCall('Returns are accepted within 14 days.'))).days).toBe(14);
    });

    contractTest(configuredOnly, 'asks once more when a reply does not match the schema, and uses the second', async () => {
      script('malformed');
      expect(output(await model.complete<Delay>(delayCall())).days).toBe(30);
      expect(requests()).toBe(2);
    });

    contractTest(configuredOnly, 'reports a reply that stays malformed as LLM.INVALID_RESPONSE, never returned: the capabilities fall back on it', async () => {
      script('malformed', 'malformed');
      const error = await domainErrorOf(model.complete<Delay>(delayCall()));
      expect([error.kind, error.code]).toEqual(['unavailable', 'LLM.INVALID_RESPONSE']);
      expect(requests()).toBe(2);
      expectNoSecret(error);
    });

    contractTest(configuredOnly, 'reports a refusal as a declined call with its tokens, not as an error', async () => {
      script('refusal');
      const result = await model.complete<Delay>(delayCall());
      expect(result).toEqual({ kind: 'declined', usage: expect.objectContaining({ inputTokens: expect.any(Number), outputTokens: expect.any(Number) }), model: model.name });
      expect(requests()).toBe(1);
    });

    const attempts = options.attempts ?? 2;
    contractTest(
      configuredOnly,
      "reports an outage that outlasts its retries as LLM.UNAVAILABLE with the provider's Retry-After: the jobs retry then",
      async () => {
        script(...Array.from({ length: attempts }, () => 'overloaded' as const));
        const error = await domainErrorOf(model.complete<Delay>(delayCall()));
        expect([error.kind, error.code]).toEqual(['unavailable', 'LLM.UNAVAILABLE']);
        // The server asked for OVERLOADED_RETRY_AFTER_SECONDS; 5 is DomainError.unavailable's default, what an adapter that drops it reports.
        expect({ retryAfterSeconds: error.retryAfterSeconds }).toEqual({ retryAfterSeconds: OVERLOADED_RETRY_AFTER_SECONDS });
        expect(requests()).toBe(attempts);
        expectNoSecret(error);
      },
      // An adapter honouring the Retry-After waits it between its attempts.
      10_000 + attempts * (OVERLOADED_RETRY_AFTER_SECONDS + 1) * 1000,
    );

    contractTest(
      configuredOnly,
      'reports a provider it cannot reach (connection refused) as LLM.UNAVAILABLE with a Retry-After, never as a raw network error',
      async () => {
        if (!fixture.modelAt) throw new Error('the fixture cannot point the adapter at another URL: give it `modelAt`');
        const url = await closedBaseUrl();
        const { error, seen } = await failureOf(fixture.modelAt(url).complete<Delay>(delayCall()));
        expect(seen).toEqual({ name: 'DomainError', kind: 'unavailable', code: 'LLM.UNAVAILABLE' });
        expect((error as DomainError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
        expectNoSecret(error);
        expect((error as DomainError).message).not.toContain(url.replace('http://', ''));
      },
      // Its retries back off (the Anthropic SDK from 0.5 s), each attempt refused at once.
      30_000,
    );

    contractTest(configuredOnly, 'refuses a call without messages, with a blank message or with a bad output name as LLM.INVALID_REQUEST, without sending it', async () => {
      const call = delayCall();
      const bad: StructuredCall[] = [{ ...call, messages: [] }, { ...call, messages: [{ role: 'user', content: '  ' }] }, { ...call, output: { ...DELAY_OUTPUT, name: 'submit delay!' } }];
      for (const wrong of bad) {
        const error = await domainErrorOf(model.complete(wrong));
        expect([error.kind, error.code]).toEqual(['invalid', 'LLM.INVALID_REQUEST']);
      }
      expect(requests()).toBe(0);
    });

    contractTest(options.notConfigured ? undefined : 'the adapter is configured', 'answers every call with LLM.NOT_CONFIGURED (503): the capabilities use their rule-based adapters', async () => {
      const error = await domainErrorOf(model.complete(delayCall()));
      expect([error.kind, error.code]).toEqual(['unavailable', 'LLM.NOT_CONFIGURED']);
      expect(model.batches).toBeNull();
    });

    contractTest(options.noBatches, 'batches: submits calls under their ids and reads each result, validated, once the batch has ended', async () => {
      const batches = model.batches;
      if (!batches) throw new Error('`batches` is null: say why in the options (noBatches)');
      const id = await batches.submit([
        { id: 'c1', call: delayCall('Refunds are processed within 30 days.') },
        { id: 'c2', call: delayCall('Gift cards expire after 365 days.') },
      ]);
      let state = await batches.poll<Delay>(id, DELAY_OUTPUT);
      for (let polls = 0; !state.ended && polls < 20; polls++) state = await batches.poll<Delay>(id, DELAY_OUTPUT);
      if (!state.ended) throw new Error('the batch did not end within 20 polls');
      expect(state.results.get('c1')).toMatchObject({ kind: 'output', output: { days: 30 } });
      expect(state.results.get('c2')).toMatchObject({ kind: 'output', output: { days: 365 } });
    });

    contractTest(options.noBatches ? undefined : 'the adapter has batches', 'has no batches: `batches` is null, so callers judge call by call', async () => {
      expect(model.batches).toBeNull();
    });
  });
}
