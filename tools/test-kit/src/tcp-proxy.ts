import { createConnection, createServer, Server, Socket } from 'node:net';

/**
 * A loopback TCP proxy to a real service (PostgreSQL, Redis) that a test can cut and restore, to
 * watch the service behave during a dependency outage.
 */
export class TcpProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private cut = false;
  port = 0;

  constructor(
    private readonly targetPort: number,
    private readonly targetHost = '127.0.0.1',
  ) {}

  async start(): Promise<number> {
    this.server = createServer((client) => {
      if (this.cut) return client.destroy();
      const upstream = createConnection(this.targetPort, this.targetHost);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => s.destroy());
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    this.port = typeof address === 'object' && address ? address.port : 0;
    return this.port;
  }

  /** Drops every open connection and refuses new ones. */
  outage(): void {
    this.cut = true;
    for (const s of this.sockets) s.destroy();
  }

  restore(): void {
    this.cut = false;
  }

  async stop(): Promise<void> {
    this.outage();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
