import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { HttpCredentialProxy, startHttpCredentialProxy } from '@svc/test-kit';

/** The credential proxy the conformance test relies on: adds the bearer, streams both ways, changes nothing else. */
describe('HttpCredentialProxy', () => {
  let upstream: Server;
  let proxy: HttpCredentialProxy;
  let seen: { method?: string; url?: string; headers?: IncomingHttpHeaders; body?: string } = {};
  let releaseStream: () => void = () => undefined;

  beforeAll(async () => {
    upstream = createServer((req, res) => {
      if (req.url === '/base/sse') {
        // First event now, the second only when the test says so: proves the proxy does not buffer.
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.write('data: one\n\n');
        releaseStream = () => res.end('data: two\n\n');
        return;
      }
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        seen = { method: req.method, url: req.url, headers: req.headers, body };
        res.writeHead(201, 'Made', { 'content-type': 'application/json', 'x-upstream': 'yes', 'set-cookie': ['a=1', 'b=2'] });
        res.end(JSON.stringify({ ok: true }));
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    proxy = await startHttpCredentialProxy(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}/base`, 'the-key');
  });

  afterAll(async () => {
    await proxy?.stop();
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
  });

  it('adds (and overrides) the bearer credential and forwards method, path, query, headers and body', async () => {
    const res = await fetch(`${proxy.url}/mcp?x=1`, {
      method: 'POST',
      headers: { authorization: 'Bearer client-supplied', 'content-type': 'application/json', 'x-custom': 'kept' },
      body: JSON.stringify({ hello: 'world' }),
    });
    expect(res.status).toBe(201);
    expect(res.statusText).toBe('Made');
    expect(res.headers.get('x-upstream')).toBe('yes');
    expect(res.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await res.json()).toEqual({ ok: true });
    expect(seen).toMatchObject({ method: 'POST', url: '/base/mcp?x=1', body: '{"hello":"world"}' });
    expect(seen.headers).toMatchObject({ authorization: 'Bearer the-key', 'x-custom': 'kept', 'content-type': 'application/json', host: new URL(proxy.url).host });
  });

  it('streams a response (SSE) as it comes', async () => {
    const res = await fetch(`${proxy.url}/sse`);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('data: one\n\n');
    releaseStream();
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value);
    expect(rest).toBe('data: two\n\n');
  });

  it('answers 502 when the target is down', async () => {
    const dead = await startHttpCredentialProxy('http://127.0.0.1:1', 'k');
    try {
      expect((await fetch(`${dead.url}/x`)).status).toBe(502);
    } finally {
      await dead.stop();
    }
  });
});
