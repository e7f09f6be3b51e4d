import type { IncomingMessage, ServerResponse } from 'node:http';
import { LocalHttpServer } from '@svc/test-kit';
import { LocalHashingEmbedder } from '../local-hashing.embedder';

/** What the server does with one request; requests beyond the script get `ok`. */
export type ScriptedAnswer =
  | 'ok'
  /** Never answers (the client's timeout must fire). */
  | 'hang'
  /** Vectors one dimension short. */
  | 'wrong-dimension'
  /** The same index twice. */
  | 'duplicate-index'
  | { status: number; headers?: Record<string, string>; body?: string };

export interface RecordedRequest {
  method: string;
  path: string;
  authorization?: string;
  body: { model?: string; input?: string[]; dimensions?: number; encoding_format?: string };
}

/**
 * A local HTTP server speaking the OpenAI embeddings API (`POST /v1/embeddings`), for tests: vectors
 * come from the local hashing embedder (so related texts stay related), scaled by 3 (clients must
 * normalise) and listed in reverse order (clients must reorder by `index`). Failures are scripted.
 */
export class FakeOpenAiEmbeddingsServer extends LocalHttpServer {
  readonly requests: RecordedRequest[] = [];
  readonly script: ScriptedAnswer[] = [];
  private readonly embedder: LocalHashingEmbedder;

  constructor(readonly dimensions: number) {
    super();
    this.embedder = new LocalHashingEmbedder(dimensions);
  }

  /** Listens on 127.0.0.1, on a free port; returns the base URL to configure (`.../v1`). */
  start(): Promise<string> {
    return this.listen('/v1');
  }

  protected async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // A body that is not JSON is recorded as empty: the test asserts on it.
    const body = await this.readJson<RecordedRequest['body']>(req, {});
    this.requests.push({ method: req.method ?? '', path: req.url ?? '', authorization: req.headers.authorization, body });
    const answer = this.script.shift() ?? 'ok';
    if (answer === 'hang') {
      this.hang(res);
      return;
    }
    if (typeof answer === 'object') {
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(answer.body ?? JSON.stringify({ error: { message: 'scripted failure', type: 'server_error' } }));
      return;
    }
    if (req.method !== 'POST' || req.url !== '/v1/embeddings' || !Array.isArray(body.input)) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'not found' } }));
      return;
    }
    const vectors = await this.embedder.embed(body.input);
    const data = vectors.map((vector, index) => ({
      object: 'embedding',
      index: answer === 'duplicate-index' ? 0 : index,
      embedding: (answer === 'wrong-dimension' ? vector.slice(1) : vector).map((x) => x * 3),
    }));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ object: 'list', model: body.model, data: data.reverse(), usage: { prompt_tokens: 1, total_tokens: 1 } }));
  }
}
