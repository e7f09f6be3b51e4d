import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorBody, STATUS_BY_KIND } from '@svc/http';
import { DomainError, newId } from '@svc/kernel';
import { domainErrorOf } from '@svc/kernel/testing';
import type { RepositoryLink } from '@svc/workspace-core';
import { HttpRepositoryInstanceClient } from './repository-instance-clients';

const API_KEY = 'svc_ins_Zk3rLinkSecret0123456789abcdefABCDEF';
const LINK: RepositoryLink = { instanceId: newId('ki_'), svcInstanceId: newId('ki_'), apiKey: API_KEY };
const PAGE = { offset: 0, limit: 50 };

interface Received {
  path: string;
  method: string;
  instanceId?: string;
  apiKey?: string;
  contentType?: string;
  body: unknown;
}

type Answer = (res: ServerResponse, req: Received) => void;

/** A local HTTP server that records what it receives and answers as the test scripts it. */
class ScriptedServer {
  readonly received: Received[] = [];
  answer: Answer = (res) => json(res, 200, { response: true });
  private server?: Server;

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    // Hung answers keep their sockets open: drop them, or close() would wait for them.
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  reset(): void {
    this.received.length = 0;
    this.answer = (res) => json(res, 200, { response: true });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Kept as text: the assertion will show it.
    }
    const header = (name: string) => (typeof req.headers[name] === 'string' ? (req.headers[name] as string) : undefined);
    const received: Received = { path: req.url ?? '', method: req.method ?? '', instanceId: header('instance-id'), apiKey: header('api-key'), contentType: header('content-type'), body };
    this.received.push(received);
    this.answer(res, received);
  }
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

const view = (id: string, overrides: Record<string, unknown> = {}) => ({
  id,
  instance_id: LINK.svcInstanceId,
  external_id: null,
  name: `Document ${id}`,
  url: `https://wiki.example/${id}`,
  owner: null,
  extraproperties: { team: 'support' },
  media_type: 'text/markdown',
  size_bytes: 12,
  content_hash: 'h',
  state: 'INDEXED',
  failure_reason: null,
  created_at: '2026-11-21T10:00:00.000Z',
  updated_at: '2026-11-21T10:00:00.000Z',
  indexed_at: '2026-11-21T10:00:01.000Z',
  ...overrides,
});

/** Everything of a DomainError a person or a log could see. */
const visible = (error: DomainError) =>
  JSON.stringify({ message: error.message, code: error.code, hint: error.hint, errors: error.errors, cause: String(error.cause), stack: error.stack, body: errorBody(error, 'req_test') });

describe('HttpRepositoryInstanceClient against a local instance API', () => {
  const remote = new ScriptedServer();
  const elsewhere = new ScriptedServer();
  let baseUrl: string;
  let elsewhereUrl: string;
  let client: HttpRepositoryInstanceClient;
  const output: string[] = [];
  const writes: jest.SpyInstance[] = [];

  beforeAll(async () => {
    baseUrl = await remote.start();
    elsewhereUrl = await elsewhere.start();
    client = new HttpRepositoryInstanceClient(baseUrl, 2000);
    // Whatever the client or anything under it prints is kept, to check that the key never shows.
    for (const stream of [process.stdout, process.stderr]) {
      const write = stream.write.bind(stream);
      writes.push(
        jest.spyOn(stream, 'write').mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
          output.push(String(chunk));
          return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
        }) as typeof stream.write),
      );
    }
  });

  afterAll(async () => {
    for (const spy of writes) spy.mockRestore();
    await remote.stop();
    await elsewhere.stop();
    expect(output.join('')).not.toContain(API_KEY);
  });

  beforeEach(() => {
    remote.reset();
    elsewhere.reset();
  });

  /** The DomainError a call rejects with, after checking that nothing of it shows the key. */
  async function failure(call: Promise<unknown>): Promise<DomainError> {
    const error = await domainErrorOf(call);
    expect(visible(error)).not.toContain(API_KEY);
    expect(visible(error)).not.toContain('LinkSecret');
    return error;
  }

  describe('answers of the expected shape', () => {
    it('lists with the link headers and a JSON body, mapping documents to RemoteDocument', async () => {
      remote.answer = (res) => json(res, 200, { response: { items: [view('kd_1'), view('kd_2', { url: null, extraproperties: undefined })], total: 7, offset: 5, limit: 2 } });
      const page = await client.list(LINK, { offset: 5, limit: 2 }, 'INDEXED');
      expect(page).toEqual({
        items: [
          { id: 'kd_1', name: 'Document kd_1', url: 'https://wiki.example/kd_1', state: 'INDEXED', extraproperties: { team: 'support' }, createdAt: '2026-11-21T10:00:00.000Z' },
          { id: 'kd_2', name: 'Document kd_2', url: null, state: 'INDEXED', extraproperties: {}, createdAt: '2026-11-21T10:00:00.000Z' },
        ],
        total: 7,
        offset: 5,
        limit: 2,
      });
      expect(remote.received).toEqual([
        { path: '/api/documents/list', method: 'POST', instanceId: LINK.svcInstanceId, apiKey: API_KEY, contentType: 'application/json', body: { offset: 5, limit: 2, state: 'INDEXED' } },
      ]);
    });

    it('gets documents by id in calls of at most 100, and none for no id', async () => {
      remote.answer = (res, req) => json(res, 200, { response: (req.body as { document_ids: string[] }).document_ids.map((id) => view(id)) });
      const ids = Array.from({ length: 150 }, (_, i) => `kd_${i}`);
      const documents = await client.getMany(LINK, ids);
      expect(documents.map((d) => d.id)).toEqual(ids);
      expect(remote.received.map((r) => [r.path, (r.body as { document_ids: string[] }).document_ids.length])).toEqual([
        ['/api/documents/get-by-ids', 100],
        ['/api/documents/get-by-ids', 50],
      ]);
      remote.reset();
      expect(await client.getMany(LINK, [])).toEqual([]);
      expect(remote.received).toEqual([]);
    });

    it('counts, with and without a state', async () => {
      remote.answer = (res, req) => json(res, 200, { response: (req.body as { state?: string }).state ? 3 : 0 });
      expect(await client.count(LINK, 'FAILED')).toBe(3);
      expect(await client.count(LINK)).toBe(0);
      expect(remote.received.map((r) => r.body)).toEqual([{ state: 'FAILED' }, {}]);
    });
  });

  describe('a refused credential', () => {
    it.each([401, 403])('HTTP %i is a 500 for operators, not retryable, naming the revoked or wrong link key', async (status) => {
      // A remote that echoes the key it refused: nothing of its detail is repeated.
      remote.answer = (res) => json(res, status, { detail: `Key ${API_KEY} is revoked.`, code: 'AUTH.INVALID_API_KEY', status });
      for (const call of [client.list(LINK, PAGE), client.getMany(LINK, ['kd_1']), client.count(LINK)]) {
        const error = await failure(call);
        expect([error.kind, STATUS_BY_KIND[error.kind], error.code, error.retryAfterSeconds]).toEqual(['internal', 500, 'REPOSITORY.LINK_CREDENTIAL_REJECTED', undefined]);
        expect(error.message).toBe(
          `The repository instance refused this service's credential (HTTP ${status} AUTH.INVALID_API_KEY): the audit link key of repository instance ${LINK.svcInstanceId} ` +
            'was revoked or is wrong, or REPOSITORY_API_URL points at a deployment that does not hold this instance. Retrying will not help: an operator must repair the link.',
        );
        expect(error.message).not.toMatch(/retry shortly|retry in/i);
        expect(error.hint).toContain('retrieval_instance_api_keys_list');
      }
    });

    it('repeats only a well-formed upstream code, and the link id only when it is one', async () => {
      remote.answer = (res) => json(res, 401, { detail: 'no', code: `AUTH.${API_KEY}` });
      const error = await failure(client.count({ ...LINK, svcInstanceId: API_KEY }));
      expect(error.message).toMatch(/^The repository instance refused this service's credential \(HTTP 401\): the audit link key was revoked or is wrong/);
      remote.answer = (res) => json(res, 403, 'not an error body');
      expect((await failure(client.count(LINK))).message).toContain('(HTTP 403):');
    });
  });

  describe('an overloaded or failing instance', () => {
    it('HTTP 429 is unavailable with the instance’s Retry-After', async () => {
      remote.answer = (res) => json(res, 429, { detail: 'slow down', code: 'HTTP.RATE_LIMITED' }, { 'retry-after': '17' });
      const error = await failure(client.list(LINK, PAGE));
      expect([error.kind, STATUS_BY_KIND[error.kind], error.code, error.retryAfterSeconds]).toEqual(['unavailable', 503, 'REPOSITORY.UPSTREAM_RATE_LIMITED', 17]);
      expect(error.message).toBe("The repository instance is limiting this service's requests (HTTP 429 HTTP.RATE_LIMITED); retry in 17 s.");
    });

    it('HTTP 503 is unavailable with the instance’s Retry-After, bounded to 1..3600 s, else 5 s', async () => {
      const cases: [Record<string, string>, number][] = [
        [{ 'retry-after': '17' }, 17],
        [{}, 5],
        [{ 'retry-after': '999999' }, 3600],
        [{ 'retry-after': '0' }, 1],
        [{ 'retry-after': 'soon' }, 5],
        [{ 'retry-after': new Date(Date.now() + 120_000).toUTCString() }, 120],
      ];
      for (const [headers, expected] of cases) {
        remote.answer = (res) => json(res, 503, { detail: 'down', code: 'DEPENDENCY.UNAVAILABLE' }, headers);
        const error = await failure(client.count(LINK));
        expect([error.kind, error.code]).toEqual(['unavailable', 'REPOSITORY.UPSTREAM_ERROR']);
        // An HTTP date is rounded up from whole seconds: allow the second it took to get here.
        if (headers['retry-after']?.includes('GMT')) expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(expected - 2);
        else expect(error.retryAfterSeconds).toBe(expected);
        expect(error.message).toBe(`The repository instance is unavailable (HTTP 503 DEPENDENCY.UNAVAILABLE); retry in ${error.retryAfterSeconds} s.`);
      }
    });

    it('another 5xx, with any body, is unavailable for 5 s', async () => {
      remote.answer = (res) => {
        res.writeHead(502, { 'content-type': 'text/html' });
        res.end('<html>Bad gateway</html>');
      };
      const error = await failure(client.getMany(LINK, ['kd_1']));
      expect([error.kind, error.code, error.retryAfterSeconds, error.message]).toEqual(['unavailable', 'REPOSITORY.UPSTREAM_ERROR', 5, 'The repository instance is unavailable (HTTP 502); retry in 5 s.']);
    });
  });

  describe('a request the instance rejects', () => {
    it.each([400, 404, 405, 413, 422])('HTTP %i is an internal inconsistency, not a 503 to retry', async (status) => {
      remote.answer = (res) => json(res, status, { detail: 'nope', code: 'REQUEST.INVALID' });
      const error = await failure(client.list(LINK, PAGE));
      expect([error.kind, STATUS_BY_KIND[error.kind], error.code, error.retryAfterSeconds]).toEqual(['internal', 500, 'REPOSITORY.UPSTREAM_REJECTED_REQUEST', undefined]);
      expect(error.message).toBe(
        `The repository instance rejected this service's request to /api/documents/list (HTTP ${status} REQUEST.INVALID): the two sides disagree on the instance API. ` +
          'Retrying will not help: check REPOSITORY_API_URL and that both deployments run compatible versions.',
      );
    });
  });

  describe('a redirect', () => {
    it.each([301, 302, 307, 308])('HTTP %i to another server is not followed: the key never goes there', async (status) => {
      remote.answer = (res) => {
        res.writeHead(status, { location: `${elsewhereUrl}/api/documents/count` });
        res.end();
      };
      elsewhere.answer = (res) => json(res, 200, { response: 42 });
      const outcome = client.count(LINK).then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      );
      await outcome;
      // First what matters most: the other server never saw the request, let alone the key.
      expect(elsewhere.received.map((r) => r.apiKey)).toEqual([]);
      expect(remote.received).toHaveLength(1);
      const error = await failure(outcome.then((o) => ('error' in o ? Promise.reject(o.error) : o.value)));
      expect([error.kind, STATUS_BY_KIND[error.kind], error.code, error.retryAfterSeconds]).toEqual(['internal', 500, 'REPOSITORY.UPSTREAM_REDIRECT', undefined]);
      expect(error.message).toBe(
        `The repository instance answered /api/documents/count with a redirect (HTTP ${status}), which this service does not follow so that the link's key is never sent to another address. ` +
          'Set REPOSITORY_API_URL to the final address of the instance API.',
      );
      expect(error.message).not.toContain(elsewhereUrl);
    });
  });

  describe('a 200 whose body is not the operation’s shape', () => {
    const raw = (text: string) => (res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(text);
    };
    const body = (value: unknown) => raw(JSON.stringify(value));
    const item = view('kd_1');
    const cases: [string, (c: HttpRepositoryInstanceClient) => Promise<unknown>, Answer, string][] = [
      ['list: a JSON number', (c) => c.list(LINK, PAGE), raw('5'), 'the body has no "response" member'],
      ['list: a JSON string', (c) => c.list(LINK, PAGE), raw('"ok"'), 'the body has no "response" member'],
      ['list: true', (c) => c.list(LINK, PAGE), raw('true'), 'the body has no "response" member'],
      ['list: null', (c) => c.list(LINK, PAGE), raw('null'), 'the body has no "response" member'],
      ['list: an array', (c) => c.list(LINK, PAGE), raw('[]'), 'the body has no "response" member'],
      ['list: not JSON', (c) => c.list(LINK, PAGE), raw('<html>login</html>'), 'the body is not JSON'],
      ['list: an empty body', (c) => c.list(LINK, PAGE), raw(''), 'the body is not JSON'],
      ['list: {}', (c) => c.list(LINK, PAGE), body({}), 'the body has no "response" member'],
      ['list: {response:{}}', (c) => c.list(LINK, PAGE), body({ response: {} }), 'response.items is not a list'],
      ['list: {response:true}', (c) => c.list(LINK, PAGE), body({ response: true }), 'the response is not an object'],
      ['list: items not a list', (c) => c.list(LINK, PAGE), body({ response: { items: { 0: item }, total: 1 } }), 'response.items is not a list'],
      ['list: no total', (c) => c.list(LINK, PAGE), body({ response: { items: [] } }), 'response.total is not a non-negative integer'],
      ['list: a string total', (c) => c.list(LINK, PAGE), body({ response: { items: [], total: '3' } }), 'response.total is not a non-negative integer'],
      ['list: an item that is a number', (c) => c.list(LINK, PAGE), body({ response: { items: [item, 5], total: 2 } }), 'response.items[1] is not an object'],
      ['list: an item without a name', (c) => c.list(LINK, PAGE), body({ response: { items: [view('kd_1', { name: undefined })], total: 1 } }), 'response.items[0] lacks a string id, name, state or created_at'],
      ['get-by-ids: {response:{}}', (c) => c.getMany(LINK, ['kd_1']), body({ response: {} }), 'the response is not a list'],
      ['get-by-ids: {response:"x"}', (c) => c.getMany(LINK, ['kd_1']), body({ response: 'x' }), 'the response is not a list'],
      ['get-by-ids: a JSON number', (c) => c.getMany(LINK, ['kd_1']), raw('7'), 'the body has no "response" member'],
      ['get-by-ids: a numeric id', (c) => c.getMany(LINK, ['kd_1']), body({ response: [view('kd_1', { id: 1 })] }), 'response[0] lacks a string id, name, state or created_at'],
      ['get-by-ids: a numeric url', (c) => c.getMany(LINK, ['kd_1']), body({ response: [view('kd_1', { url: 5 })] }), 'response[0].url is neither a string nor null'],
      ['get-by-ids: list extra properties', (c) => c.getMany(LINK, ['kd_1']), body({ response: [view('kd_1', { extraproperties: [] })] }), 'response[0].extraproperties is not an object'],
      ['count: a string', (c) => c.count(LINK), body({ response: '3' }), 'the response is not a non-negative integer'],
      ['count: null', (c) => c.count(LINK), body({ response: null }), 'the response is not a non-negative integer'],
      ['count: negative', (c) => c.count(LINK), body({ response: -1 }), 'the response is not a non-negative integer'],
      ['count: a fraction', (c) => c.count(LINK), body({ response: 1.5 }), 'the response is not a non-negative integer'],
      ['count: true', (c) => c.count(LINK), raw('true'), 'the body has no "response" member'],
    ];

    it.each(cases)('%s is unavailable (503) with a clear message, never a TypeError', async (_name, call, answer, problem) => {
      remote.answer = answer;
      const error = await failure(call(client));
      expect([error.kind, STATUS_BY_KIND[error.kind], error.code, error.retryAfterSeconds]).toEqual(['unavailable', 503, 'REPOSITORY.UPSTREAM_BAD_RESPONSE', 5]);
      expect(error.message).toMatch(/^The repository instance answered \/api\/documents\/(list|get-by-ids|count) with a body this service cannot read \(/);
      expect(error.message).toContain(`(${problem});`);
    });
  });

  describe('an instance that does not answer', () => {
    it('a hang past timeoutMs is unavailable, naming the timeout', async () => {
      remote.answer = () => undefined;
      const impatient = new HttpRepositoryInstanceClient(baseUrl, 150);
      const started = Date.now();
      const error = await failure(impatient.count(LINK));
      expect(Date.now() - started).toBeLessThan(1500);
      expect([error.kind, error.code, error.retryAfterSeconds, error.message]).toEqual(['unavailable', 'REPOSITORY.UNREACHABLE', 5, 'The repository instance did not answer within 150 ms; retry shortly.']);
    });

    it('a body that stops half way past timeoutMs is unavailable too', async () => {
      remote.answer = (res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"response":');
      };
      const error = await failure(new HttpRepositoryInstanceClient(baseUrl, 150).count(LINK));
      expect([error.kind, error.code, error.message]).toEqual(['unavailable', 'REPOSITORY.UNREACHABLE', 'The repository instance did not answer within 150 ms; retry shortly.']);
    });

    it('a closed port is unavailable, with the network code as the cause', async () => {
      const closed = new ScriptedServer();
      const url = await closed.start();
      await closed.stop();
      const error = await failure(new HttpRepositoryInstanceClient(url, 2000).list(LINK, PAGE));
      expect([error.kind, error.code, error.retryAfterSeconds, error.message]).toEqual(['unavailable', 'REPOSITORY.UNREACHABLE', 5, 'The repository instance cannot be reached; retry shortly.']);
      expect(error.cause).toMatchObject({ code: 'ECONNREFUSED' });
      expect(String(error.cause)).not.toContain(url);
    });
  });
});
