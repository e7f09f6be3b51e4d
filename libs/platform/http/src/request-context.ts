import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import type { InstanceAccess, Principal } from '@svc/kernel';
import type { Surface } from './operation.decorator';

/** What the platform attaches to each request. */
export interface PlatformRequest extends Request {
  requestId?: string;
  principal?: Principal;
  /** The surface the auth guard authenticated this request for (its WWW-Authenticate challenge follows it). */
  surface?: Surface;
  /** The caller's standing on the instance the operation names, set by the authorizer. */
  instanceAccess?: InstanceAccess;
  /** The app's own logger (in the standalone, Nest's global logger is the last app's). */
  appLog?: { error(fields: object, message: string): void; warn(fields: object, message: string): void };
}

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Keeps a caller's (or gateway's) `x-request-id` when it is sane, else makes one. */
export function resolveRequestId(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value && SAFE_REQUEST_ID.test(value) ? value : randomUUID();
}
