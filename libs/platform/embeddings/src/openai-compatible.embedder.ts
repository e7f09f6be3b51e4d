import { setTimeout as sleep } from 'node:timers/promises';
import { DomainError, Embedder, isDomainError } from '@svc/kernel';
import { l2Normalize } from './l2-normalize';
import { MAX_DIMENSIONS, MIN_DIMENSIONS } from './local-hashing.embedder';

export interface OpenAiCompatibleEmbedderOptions {
  /** The API root, `/embeddings` is appended: `https://api.openai.com/v1`, `http://127.0.0.1:11434/v1`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <key>` when set. */
  apiKey?: string;
  model: string;
  /** The model's output size; every vector the server returns is checked against it. */
  dimensions: number;
  /** Deadline of one HTTP attempt (connection, response and body). Default 30 s. */
  timeoutMs?: number;
  /** Texts per request. Default 64. */
  batchSize?: number;
  /** Retries after the first attempt, on 408, 429, 5xx, network errors and timeouts. Default 3. */
  maxRetries?: number;
  /** First retry delay, doubled at each retry, before jitter. Default 500 ms. */
  retryBaseDelayMs?: number;
  /** Longest delay between attempts, also the cap of a server's Retry-After. Default 8 s. */
  retryMaxDelayMs?: number;
  /** Send `dimensions` in the request (models with shortenable output, like OpenAI's text-embedding-3). */
  sendDimensions?: boolean;
}

interface Failure {
  reason: string;
  retryAfterMs?: number;
}

const UNAVAILABLE = 'EMBEDDINGS.UNAVAILABLE';
const INVALID_RESPONSE = 'EMBEDDINGS.INVALID_RESPONSE';
const DIMENSION_MISMATCH = 'EMBEDDINGS.DIMENSION_MISMATCH';

/**
 * An OpenAI-compatible `POST /embeddings` endpoint: OpenAI itself, or a local model server (vLLM,
 * Ollama, llama.cpp, text-embeddings-inference). Texts go in batches, one request at a time; transient
 * failures (408, 429, 5xx, network errors, timeouts) are retried with exponential backoff, a bounded
 * number of times, honouring Retry-After. Vectors are put back in input order by their `index`,
 * checked (count, dimensions, finite numbers) and L2-normalised.
 *
 * Blank texts are not sent (most servers reject empty input): they get the zero vector, like the
 * local embedder gives a text without words.
 *
 * Errors are DomainError `unavailable`: `EMBEDDINGS.UNAVAILABLE` (unreachable, refused, retries
 * exhausted), `EMBEDDINGS.INVALID_RESPONSE` and `EMBEDDINGS.DIMENSION_MISMATCH` (a misconfiguration,
 * not retried here). Messages name the HTTP status at most: never the key, the URL or a response body.
 */
export class OpenAiCompatibleEmbedder extends Embedder {
  readonly model: string;
  readonly dimensions: number;
  private readonly url: string;
  private readonly timeoutMs: number;
  private readonly batchSize: number;
  private readonly maxRetries: number;
  private readonly retryBaseDelayMs: number;
  private readonly retryMaxDelayMs: number;

  constructor(private readonly options: OpenAiCompatibleEmbedderOptions) {
    super();
    let url: URL;
    try {
      url = new URL(`${options.baseUrl.replace(/\/+$/, '')}/embeddings`);
    } catch {
      throw DomainError.invalid('EMBEDDINGS.INVALID_BASE_URL', 'The embedding service URL is not a valid URL.');
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) {
      throw DomainError.invalid(
        'EMBEDDINGS.INVALID_BASE_URL',
        'The embedding service URL must be http(s) without credentials (put the key in EMBEDDINGS_API_KEY).',
      );
    }
    const { dimensions } = options;
    if (!Number.isInteger(dimensions) || dimensions < MIN_DIMENSIONS || dimensions > MAX_DIMENSIONS) {
      throw DomainError.invalid(
        'EMBEDDINGS.INVALID_DIMENSIONS',
        `Embedding dimensions must be a whole number between ${MIN_DIMENSIONS} and ${MAX_DIMENSIONS}.`,
      );
    }
    this.url = url.toString();
    this.model = options.model;
    this.dimensions = dimensions;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.batchSize = Math.max(1, options.batchSize ?? 64);
    this.maxRetries = Math.max(0, options.maxRetries ?? 3);
    this.retryBaseDelayMs = options.retryBaseDelayMs ?? 500;
    this.retryMaxDelayMs = options.retryMaxDelayMs ?? 8000;
  }

  async embed(texts: string[]): Promise<number[][]> {
    const out: number[][] = texts.map(() => []);
    const sent: number[] = [];
    texts.forEach((text, i) => {
      if (text.trim() === '') out[i] = new Array<number>(this.dimensions).fill(0);
      else sent.push(i);
    });
    for (let start = 0; start < sent.length; start += this.batchSize) {
      const positions = sent.slice(start, start + this.batchSize);
      const vectors = await this.requestWithRetries(positions.map((i) => texts[i]));
      positions.forEach((position, k) => (out[position] = vectors[k]));
    }
    return out;
  }

  private async requestWithRetries(input: string[]): Promise<number[][]> {
    const attempts = this.maxRetries + 1;
    let failure: Failure = { reason: 'no attempt' };
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const result = await this.attempt(input);
      if (Array.isArray(result)) return result;
      failure = result;
      if (attempt < attempts) await sleep(this.delayBefore(attempt, failure));
    }
    throw DomainError.unavailable(
      UNAVAILABLE,
      `The embedding service is unavailable (${failure.reason}, ${attempts} attempts).`,
      failure.retryAfterMs ? { retryAfterSeconds: Math.ceil(failure.retryAfterMs / 1000) } : undefined,
    );
  }

  /** One HTTP exchange: the vectors, a retryable failure, or a thrown DomainError that no retry can fix. */
  private async attempt(input: string[]): Promise<number[][] | Failure> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    const body: Record<string, unknown> = { model: this.model, input, encoding_format: 'float' };
    if (this.options.sendDimensions) body.dimensions = this.dimensions;
    const signal = AbortSignal.timeout(this.timeoutMs);
    let text: string;
    try {
      const response = await fetch(this.url, { method: 'POST', headers, body: JSON.stringify(body), signal });
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        const status = response.status;
        if (status === 408 || status === 429 || status >= 500) {
          return { reason: `HTTP ${status}`, retryAfterMs: retryAfterMs(response.headers.get('retry-after')) };
        }
        const hint = status === 401 || status === 403 ? ': check EMBEDDINGS_API_KEY' : status === 404 ? ': check EMBEDDINGS_BASE_URL and EMBEDDINGS_MODEL' : '';
        throw DomainError.unavailable(UNAVAILABLE, `The embedding service refused the request (HTTP ${status})${hint}.`);
      }
      text = await response.text();
    } catch (error) {
      if (isDomainError(error)) throw error;
      // Checked on the signal, not the error: fetch's errors come from another realm in some runtimes.
      return { reason: signal.aborted ? `no answer within ${this.timeoutMs} ms` : 'unreachable' };
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw DomainError.unavailable(INVALID_RESPONSE, 'The embedding service answered with something other than JSON.');
    }
    return this.vectorsOf(json, input.length);
  }

  private vectorsOf(json: unknown, expected: number): number[][] {
    const data = typeof json === 'object' && json !== null ? (json as { data?: unknown }).data : undefined;
    if (!Array.isArray(data) || data.length !== expected) {
      throw DomainError.unavailable(INVALID_RESPONSE, `The embedding service returned ${Array.isArray(data) ? data.length : 'no'} vectors for ${expected} texts.`);
    }
    const out = new Array<number[] | undefined>(expected).fill(undefined);
    data.forEach((item: unknown, position) => {
      const { index = position, embedding } = (typeof item === 'object' && item !== null ? item : {}) as { index?: unknown; embedding?: unknown };
      if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= expected || out[index]) {
        throw DomainError.unavailable(INVALID_RESPONSE, 'The embedding service returned vectors with missing or repeated indexes.');
      }
      if (!Array.isArray(embedding) || !embedding.every((x) => typeof x === 'number' && Number.isFinite(x))) {
        throw DomainError.unavailable(INVALID_RESPONSE, 'The embedding service returned a vector that is not a list of numbers.');
      }
      if (embedding.length !== this.dimensions) {
        throw DomainError.unavailable(
          DIMENSION_MISMATCH,
          `The embedding model returned ${embedding.length} dimensions where ${this.dimensions} are configured (EMBEDDINGS_DIMENSIONS).`,
        );
      }
      out[index] = l2Normalize(embedding as number[]);
    });
    return out as number[][];
  }

  /** Exponential backoff with equal jitter; a server's Retry-After wins when longer, within the cap. */
  private delayBefore(retry: number, failure: Failure): number {
    const ceiling = Math.min(this.retryMaxDelayMs, this.retryBaseDelayMs * 2 ** (retry - 1));
    const backoff = ceiling / 2 + (Math.random() * ceiling) / 2;
    return Math.min(this.retryMaxDelayMs, Math.max(backoff, failure.retryAfterMs ?? 0));
  }
}

/** Retry-After in seconds or as an HTTP date, in milliseconds; undefined when absent or unreadable. */
function retryAfterMs(header: string | null): number | undefined {
  if (!header) return undefined;
  if (/^\s*\d+\s*$/.test(header)) return Number(header) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}
