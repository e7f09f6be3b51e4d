import createClient from 'openapi-fetch';
import type { paths } from './audit-api.gen';
import { ApiError, toApiError } from './api-error';
import type { Session } from './session';

/** The operations of the audit API, by path: their bodies and answers come from its OpenAPI document only. */
export type AuditPaths = paths;
export type AuditPath = keyof paths;
/** The body an operation takes. */
export type AuditBody<P extends AuditPath> = paths[P]['post']['requestBody']['content']['application/json'];
/** What an operation answers in `{ response }`. */
export type AuditResult<P extends AuditPath> = paths[P]['post']['responses'][200]['content']['application/json']['response'];

/**
 * `fetch` for the API: the session cookie goes with every call; a 401 gets one renewal of the cookie
 * and the call again (the cookie may have just expired, within the refresh grace), then ends the session.
 */
export function sessionFetch(session: Session): (request: Request) => Promise<Response> {
  return async (request) => {
    const retry = request.clone();
    const first = await globalThis.fetch(request);
    if (first.status !== 401) return first;
    const renewal = await session.renew();
    if (renewal.kind !== 'renewed') {
      if (renewal.kind === 'ended') session.end();
      return first;
    }
    const second = await globalThis.fetch(retry);
    if (second.status === 401) session.end();
    return second;
  };
}

export type AuditClient = ReturnType<typeof createAuditClient>;

export function createAuditClient(options: { apiBase: string; session: Session }) {
  return createClient<paths>({ baseUrl: options.apiBase, credentials: 'same-origin', fetch: sessionFetch(options.session) });
}

/** The `response` of a successful call, or the service's error as an ApiError. */
export async function unwrap<T>(call: Promise<{ data?: { response: T }; error?: unknown; response: Response }>): Promise<T> {
  let result: Awaited<typeof call>;
  try {
    result = await call;
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError({ status: 0, detail: error instanceof Error ? error.message : undefined });
  }
  if (result.data !== undefined) return result.data.response;
  throw toApiError(result.error, result.response.status);
}
