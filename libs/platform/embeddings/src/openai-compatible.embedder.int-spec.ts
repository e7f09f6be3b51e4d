import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { isDomainError } from '@svc/kernel';
import { domainErrorOf } from '@svc/kernel/testing';
import { OpenAiCompatibleEmbedder, OpenAiCompatibleEmbedderOptions } from './openai-compatible.embedder';
import { embedderContract } from './testing/embedder.contract';
import { FakeOpenAiEmbeddingsServer } from './testing/openai-embeddings.server';

const KEY = 'sk-test-0123456789abcdef';
const fast = { retryBaseDelayMs: 10, retryMaxDelayMs: 50 };


describe('OpenAiCompatibleEmbedder against a local OpenAI-compatible server', () => {
  const server = new FakeOpenAiEmbeddingsServer(128);
  let baseUrl: string;
  const embedder = (options: Partial<OpenAiCompatibleEmbedderOptions> = {}) =>
    new OpenAiCompatibleEmbedder({ baseUrl, apiKey: KEY, model: 'fake-embed', dimensions: 128, ...fast, ...options });

  beforeAll(async () => {
    baseUrl = await server.start();
  });
  afterAll(() => server.stop());
  beforeEach(() => {
    server.requests.length = 0;
    server.script.length = 0;
  });

  embedderContract('OpenAiCompatibleEmbedder', () => embedder());

  it('posts the model and the texts with the bearer key, in batches, and skips blank texts', async () => {
    const texts = Array.from({ length: 70 }, (_, i) => (i === 3 ? '  ' : `text ${i}`));
    const vectors = await embedder({ batchSize: 32 }).embed(texts);
    expect(vectors).toHaveLength(70);
    expect(vectors[3].every((x) => x === 0)).toBe(true);
    expect(server.requests.map((r) => r.body.input?.length)).toEqual([32, 32, 5]);
    expect(server.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1/embeddings',
      authorization: `Bearer ${KEY}`,
      body: { model: 'fake-embed', encoding_format: 'float' },
    });
    expect(server.requests[0].body.dimensions).toBeUndefined();
    expect(server.requests.flatMap((r) => r.body.input)).not.toContain('  ');
  });

  it('sends no Authorization header without a key, and the dimensions when asked to', async () => {
    await embedder({ apiKey: undefined, sendDimensions: true }).embed(['hello']);
    expect(server.requests[0].authorization).toBeUndefined();
    expect(server.requests[0].body.dimensions).toBe(128);
  });

  it('reorders the vectors by index and normalises them', async () => {
    // The server lists the vectors in reverse order, scaled by 3.
    const [a, b] = await embedder().embed(['refund policy', 'cafeteria hours']);
    const [a1] = await embedder().embed(['refund policy']);
    expect(a).toEqual(a1);
    expect(a).not.toEqual(b);
    expect(Math.hypot(...a)).toBeCloseTo(1, 9);
  });

  it('retries after a 429 and succeeds', async () => {
    server.script.push({ status: 429, headers: { 'retry-after': '0' } });
    const vectors = await embedder().embed(['rate limited once']);
    expect(vectors[0]).toHaveLength(128);
    expect(server.requests).toHaveLength(2);
  });

  it('waits as long as Retry-After asks, within its cap, and reports it when retries run out', async () => {
    server.script.push({ status: 429, headers: { 'retry-after': '1' } });
    const started = Date.now();
    await embedder({ retryMaxDelayMs: 5000 }).embed(['wait for me']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    server.script.push({ status: 503, headers: { 'retry-after': '7' } }, { status: 503, headers: { 'retry-after': '7' } });
    const error = await domainErrorOf(embedder({ maxRetries: 1 }).embed(['x']));
    expect(error.retryAfterSeconds).toBe(7);
  });

  it('gives up after its retries on persistent 500s: unavailable, without the key in the message', async () => {
    server.script.push(...Array.from({ length: 5 }, () => ({ status: 500 })));
    const error = await domainErrorOf(embedder({ maxRetries: 2 }).embed(['x']));
    expect([error.kind, error.code]).toEqual(['unavailable', 'EMBEDDINGS.UNAVAILABLE']);
    expect(error.message).toBe('The embedding service is unavailable (HTTP 500, 3 attempts).');
    expect(server.requests).toHaveLength(3);
    expect(JSON.stringify({ message: error.message, cause: String(error.cause) })).not.toContain(KEY);
  });

  it('times out an attempt that gets no answer, retries, then reports unavailable', async () => {
    server.script.push('hang', 'hang');
    const started = Date.now();
    const error = await domainErrorOf(embedder({ timeoutMs: 200, maxRetries: 1 }).embed(['slow']));
    expect(error.code).toBe('EMBEDDINGS.UNAVAILABLE');
    expect(error.message).toBe('The embedding service is unavailable (no answer within 200 ms, 2 attempts).');
    expect(server.requests).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('recovers when a timed-out attempt is followed by an answer', async () => {
    server.script.push('hang');
    // 1 s: the hang times out whatever the limit; the answer after it must not, even on a busy machine.
    const vectors = await embedder({ timeoutMs: 1000, maxRetries: 1 }).embed(['slow then fine']);
    expect(vectors[0]).toHaveLength(128);
  });

  it('rejects vectors of the wrong dimension, without retrying', async () => {
    server.script.push('wrong-dimension');
    const error = await domainErrorOf(embedder().embed(['a', 'b']));
    expect([error.kind, error.code]).toEqual(['unavailable', 'EMBEDDINGS.DIMENSION_MISMATCH']);
    expect(error.message).toBe('The embedding model returned 127 dimensions where 128 are configured (EMBEDDINGS_DIMENSIONS).');
    expect(server.requests).toHaveLength(1);
  });

  it('rejects malformed answers: repeated indexes, wrong counts, non-JSON', async () => {
    server.script.push('duplicate-index');
    expect((await domainErrorOf(embedder().embed(['a', 'b']))).code).toBe('EMBEDDINGS.INVALID_RESPONSE');
    server.script.push({ status: 200, body: JSON.stringify({ data: [] }) });
    expect((await domainErrorOf(embedder().embed(['a']))).code).toBe('EMBEDDINGS.INVALID_RESPONSE');
    server.script.push({ status: 200, body: '<html>proxy</html>' });
    expect((await domainErrorOf(embedder().embed(['a']))).code).toBe('EMBEDDINGS.INVALID_RESPONSE');
  });

  it('does not retry a refusal, and points at the setting to check', async () => {
    server.script.push({ status: 401, body: JSON.stringify({ error: { message: `Incorrect API key provided: ${KEY}` } }) });
    const error = await domainErrorOf(embedder().embed(['a']));
    expect(error.code).toBe('EMBEDDINGS.UNAVAILABLE');
    expect(error.message).toBe('The embedding service refused the request (HTTP 401): check EMBEDDINGS_API_KEY.');
    expect(server.requests).toHaveLength(1);
  });

  it('reports an unreachable server as unavailable after its retries', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((r) => closed.close(() => r()));
    const error = await domainErrorOf(embedder({ baseUrl: `http://127.0.0.1:${port}/v1`, maxRetries: 1 }).embed(['a']));
    expect(error.message).toBe('The embedding service is unavailable (unreachable, 2 attempts).');
    expect(error.retryAfterSeconds).toBe(5);
  });

  it('refuses a base URL carrying credentials, without repeating it', () => {
    let error: unknown;
    try {
      embedder({ baseUrl: 'https://user:hunter2@api.example.com/v1' });
    } catch (e) {
      error = e;
    }
    expect(isDomainError(error) && error.code).toBe('EMBEDDINGS.INVALID_BASE_URL');
    expect(String((error as Error).message)).not.toContain('hunter2');
  });
});
