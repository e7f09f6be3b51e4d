import { IncomingMessage, request as httpRequest, Server, ServerResponse, createServer } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Socket } from 'node:net';

/** Headers that belong to one connection and are never forwarded (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

export interface HttpCredentialProxyOptions {
  /** Keep the client's `Host` header (a transparent proxy: Host/Origin checks see what the client sent). Default true. */
  preserveHost?: boolean;
  /** Port to listen on (127.0.0.1); default any free port. Useful when the service must know the proxy's origin first. */
  port?: number;
}

/**
 * A loopback HTTP forwarding proxy that adds `Authorization: Bearer <key>` to every request, for
 * black-box tools that send no credentials (the MCP conformance suite). Every request goes to the
 * target base URL with the same method, path, query and headers; bodies stream both ways (SSE
 * included) and the upstream status and headers come back unchanged.
 */
export class HttpCredentialProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private readonly target: URL;
  port = 0;

  constructor(
    target: string,
    private readonly bearer: string,
    private readonly options: HttpCredentialProxyOptions = {},
  ) {
    this.target = new URL(target);
  }

  /** The proxy's base URL (the target's path prefix is added when forwarding). */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => this.forward(req, res));
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      this.server?.once('error', reject);
      this.server?.listen(this.options.port ?? 0, '127.0.0.1', resolve);
    });
    const address = this.server.address();
    this.port = typeof address === 'object' && address ? address.port : 0;
    return this.url;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private forward(req: IncomingMessage, res: ServerResponse): void {
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || HOP_BY_HOP.has(name) || name === 'authorization') continue;
      headers[name] = value;
    }
    if (this.options.preserveHost === false || !headers.host) headers.host = this.target.host;
    headers.authorization = `Bearer ${this.bearer}`;

    const basePath = this.target.pathname.replace(/\/$/, '');
    const send = this.target.protocol === 'https:' ? httpsRequest : httpRequest;
    const upstream = send({
      protocol: this.target.protocol,
      hostname: this.target.hostname,
      port: this.target.port,
      method: req.method,
      path: `${basePath}${req.url ?? '/'}`,
      headers,
    });
    upstream.on('response', (upstreamRes) => {
      const raw: string[] = [];
      for (let i = 0; i < upstreamRes.rawHeaders.length; i += 2) {
        if (!HOP_BY_HOP.has(upstreamRes.rawHeaders[i].toLowerCase())) raw.push(upstreamRes.rawHeaders[i], upstreamRes.rawHeaders[i + 1]);
      }
      res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.statusMessage, raw);
      res.flushHeaders();
      upstreamRes.pipe(res);
      upstreamRes.on('error', () => res.destroy());
    });
    upstream.on('error', (error) => {
      if (!res.headersSent) {
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`Proxy could not reach ${this.target.origin}: ${error.message}`);
      } else {
        res.destroy();
      }
    });
    // The client went away (or closed an SSE stream): stop the upstream exchange too.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  }
}

/** Starts an {@link HttpCredentialProxy} to `target`; stop it with `proxy.stop()`. */
export async function startHttpCredentialProxy(target: string, bearer: string, options?: HttpCredentialProxyOptions): Promise<HttpCredentialProxy> {
  const proxy = new HttpCredentialProxy(target, bearer, options);
  await proxy.start();
  return proxy;
}
