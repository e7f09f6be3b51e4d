import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The plumbing of the local HTTP servers that stand in for external APIs in tests (a model API, an
 * embeddings API): listen on a free 127.0.0.1 port, read JSON bodies, keep "hanging" responses open
 * until the server stops, close every connection on stop. Subclasses implement `handle`.
 */
export abstract class LocalHttpServer {
  private server?: Server;
  private readonly hanging: ServerResponse[] = [];

  /** Listens on a free port; returns `http://127.0.0.1:<port>` followed by `pathSuffix`. */
  protected async listen(pathSuffix = ''): Promise<string> {
    const server = createServer((req, res) => void this.handle(req, res));
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}${pathSuffix}`;
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Never answers this request (the client's timeout must fire); released on stop. */
  protected hang(res: ServerResponse): void {
    this.hanging.push(res);
  }

  /** The request body as JSON; `fallback` when it is not JSON (the test then asserts on it). */
  protected async readJson<T>(req: IncomingMessage, fallback: T): Promise<T> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    try {
      return JSON.parse(Buffer.concat(chunks).toString('utf8')) as T;
    } catch {
      return fallback;
    }
  }

  protected abstract handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
}
