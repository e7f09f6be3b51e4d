import type { Server } from 'node:http';
import { Server as NetServer } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';

interface DrainState {
  draining: boolean;
  /** Responses whose headers are not sent yet: they get `Connection: close` when draining starts. */
  open: Set<Response>;
}

const states = new WeakMap<Server, DrainState>();

function stateOf(server: Server): DrainState {
  let state = states.get(server);
  if (!state) {
    state = { draining: false, open: new Set() };
    states.set(server, state);
  }
  return state;
}

/**
 * Middleware that lets `drain` finish the requests in flight and close every keep-alive connection:
 * while draining, each response says `Connection: close`, and a connection that goes idle is closed.
 */
export function drainAware(server: Server) {
  const state = stateOf(server);
  return (_req: Request, res: Response, next: NextFunction): void => {
    if (state.draining) res.setHeader('Connection', 'close');
    else state.open.add(res);
    res.on('close', () => state.open.delete(res));
    next();
  };
}

/**
 * Graceful stop of one app's HTTP server: no new connections; requests in flight, and the next request
 * on each open keep-alive connection, answered with `Connection: close`, so each connection closes
 * right after an answer; connections still idle after `idleGraceMs` are closed. (Closing an idle
 * connection at once races with a client that is sending on it: its request would be cut.) Resolves
 * when the last connection is gone.
 */
export function drain(app: INestApplication, idleGraceMs = 1000): Promise<void> {
  const server = app.getHttpServer() as Server;
  const state = stateOf(server);
  // net.Server's close: stop listening, without http.Server's closing of idle keep-alive connections
  // (since Node 19), which cuts a request a client is sending on one at that moment.
  const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
  // Connections are told to close only once the listening socket is really gone (libuv closes it on a
  // later turn of the loop): a client reconnecting sooner would land in the kernel's accept queue and
  // be reset with it, instead of being refused.
  const listenerGone = setTimeout(() => {
    state.draining = true;
    for (const res of state.open) if (!res.headersSent) res.setHeader('Connection', 'close');
  }, LISTENER_CLOSE_MS);
  const idle = setTimeout(() => server.closeIdleConnections(), LISTENER_CLOSE_MS + idleGraceMs);
  return closed.finally(() => {
    clearTimeout(listenerGone);
    clearTimeout(idle);
  });
}

/** Time for the listening socket's close to take effect. */
const LISTENER_CLOSE_MS = 50;
