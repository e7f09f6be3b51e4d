import { Injectable } from '@nestjs/common';
import { DomainError, isId, Page, PageRequest, retryAfterSeconds } from '@svc/kernel';
import { CountDocuments, DocumentView, GetDocumentsByIds, IndexationState, ListDocuments } from '@svc/repository-core';
import { RemoteDocument, RepositoryInstanceClient, RepositoryLink } from '@svc/workspace-core';

const toRemote = (d: DocumentView): RemoteDocument => ({ id: d.id, name: d.name, url: d.url, state: d.state, extraproperties: d.extraproperties, createdAt: d.created_at });

/** This deployment's own repository context, through its public use cases. */
@Injectable()
export class LocalRepositoryInstanceClient extends RepositoryInstanceClient {
  constructor(
    private readonly listDocuments: ListDocuments,
    private readonly getDocuments: GetDocumentsByIds,
    private readonly countDocuments: CountDocuments,
  ) {
    super();
  }

  async list(link: RepositoryLink, page: PageRequest, state?: string): Promise<Page<RemoteDocument>> {
    const result = await this.listDocuments.execute(link.svcInstanceId, page, state as IndexationState | undefined);
    return { ...result, items: result.items.map(toRemote) };
  }

  async getMany(link: RepositoryLink, ids: string[]): Promise<RemoteDocument[]> {
    if (ids.length === 0) return [];
    return (await this.getDocuments.execute(link.svcInstanceId, ids)).map(toRemote);
  }

  count(link: RepositoryLink, state?: string): Promise<number> {
    return this.countDocuments.execute(link.svcInstanceId, state as IndexationState | undefined);
  }
}

/**
 * A repository instance served elsewhere: its instance API over HTTP with the link's `instance-id`
 * and `api-key`. Failures map by what would fix them (BEHAVIOUR.md §1):
 * - cannot connect, timeout, 429, 408 or 5xx: `unavailable` (503), with the instance's own `Retry-After`
 *   (1..3600 s) when it gave one, else 5 s;
 * - 401/403 (the link's key was revoked or is wrong), a redirect, or another 4xx (our request was
 *   wrong): `internal` (500) with a message for operators, no Retry-After, since retrying never helps;
 * - a 2xx whose body is not the operation's shape: `unavailable` (503), never a TypeError.
 * Redirects are not followed, so the `api-key` header never reaches another address. No message,
 * hint or cause ever contains the key.
 */
export class HttpRepositoryInstanceClient extends RepositoryInstanceClient {
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs = 10000,
  ) {
    super();
  }

  async list(link: RepositoryLink, page: PageRequest, state?: string): Promise<Page<RemoteDocument>> {
    const operation = '/api/documents/list';
    const response = await this.call(link, operation, { offset: page.offset, limit: page.limit, ...(state ? { state } : {}) });
    if (!isObject(response)) throw badResponse(operation, 'the response is not an object');
    if (!Array.isArray(response.items)) throw badResponse(operation, 'response.items is not a list');
    if (!isCount(response.total)) throw badResponse(operation, 'response.total is not a non-negative integer');
    return {
      items: response.items.map((item, i) => remoteDocument(operation, item, `response.items[${i}]`)),
      total: response.total,
      offset: isCount(response.offset) ? response.offset : page.offset,
      limit: isCount(response.limit) ? response.limit : page.limit,
    };
  }

  async getMany(link: RepositoryLink, ids: string[]): Promise<RemoteDocument[]> {
    const operation = '/api/documents/get-by-ids';
    const out: RemoteDocument[] = [];
    for (let i = 0; i < ids.length; i += 100) {
      const response = await this.call(link, operation, { document_ids: ids.slice(i, i + 100) });
      if (!Array.isArray(response)) throw badResponse(operation, 'the response is not a list');
      out.push(...response.map((item, j) => remoteDocument(operation, item, `response[${j}]`)));
    }
    return out;
  }

  async count(link: RepositoryLink, state?: string): Promise<number> {
    const operation = '/api/documents/count';
    const response = await this.call(link, operation, state ? { state } : {});
    if (!isCount(response)) throw badResponse(operation, 'the response is not a non-negative integer');
    return response;
  }

  /** The `response` member of a 2xx answer (any JSON value); every other outcome throws a DomainError. */
  private async call(link: RepositoryLink, path: string, body: object): Promise<unknown> {
    const signal = AbortSignal.timeout(this.timeoutMs);
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', 'instance-id': link.svcInstanceId, 'api-key': link.apiKey },
        body: JSON.stringify(body),
        // A redirect would carry the api-key header to wherever it points: never follow one.
        redirect: 'manual',
        signal,
      });
    } catch (error) {
      throw this.unreachable(error, signal.aborted);
    }
    let text: string;
    try {
      text = await res.text();
    } catch (error) {
      throw this.unreachable(error, signal.aborted);
    }
    if (res.status < 200 || res.status > 299) throw upstreamFailure(link, path, res, text);
    let payload: unknown;
    try {
      payload = JSON.parse(text);
    } catch {
      throw badResponse(path, 'the body is not JSON');
    }
    if (!isObject(payload) || !('response' in payload)) throw badResponse(path, 'the body has no "response" member');
    return payload.response;
  }

  private unreachable(error: unknown, timedOut: boolean): DomainError {
    return DomainError.unavailable(
      'REPOSITORY.UNREACHABLE',
      timedOut ? `The repository instance did not answer within ${this.timeoutMs} ms; retry shortly.` : 'The repository instance cannot be reached; retry shortly.',
      { cause: summary(error) },
    );
  }
}

/** Retry-After when the instance gave none (BEHAVIOUR.md §1: every 503 says when to retry). */
const DEFAULT_UPSTREAM_RETRY_AFTER_S = 5;

/** The DomainError for a non-2xx answer of the instance API. */
function upstreamFailure(link: RepositoryLink, path: string, res: Response, text: string): DomainError {
  const status = res.status;
  const code = upstreamCode(text);
  const what = `HTTP ${status}${code ? ` ${code}` : ''}`;
  if (status === 401 || status === 403) {
    const instance = isId('ki_', link.svcInstanceId) ? ` of repository instance ${link.svcInstanceId}` : '';
    return new DomainError(
      'internal',
      'REPOSITORY.LINK_CREDENTIAL_REJECTED',
      `The repository instance refused this service's credential (${what}): the audit link key${instance} was revoked or is wrong, ` +
        'or REPOSITORY_API_URL points at a deployment that does not hold this instance. Retrying will not help: an operator must repair the link.',
      { hint: 'List the instance API keys of the repository instance (retrieval_instance_api_keys_list) to see whether the audit link key was revoked, and check REPOSITORY_API_URL.' },
    );
  }
  if (status === 408 || status === 429 || status >= 500) {
    const wait = retryAfterSeconds(res.headers.get('retry-after')) ?? DEFAULT_UPSTREAM_RETRY_AFTER_S;
    return status === 429
      ? DomainError.unavailable('REPOSITORY.UPSTREAM_RATE_LIMITED', `The repository instance is limiting this service's requests (${what}); retry in ${wait} s.`, { retryAfterSeconds: wait })
      : DomainError.unavailable('REPOSITORY.UPSTREAM_ERROR', `The repository instance is unavailable (${what}); retry in ${wait} s.`, { retryAfterSeconds: wait });
  }
  if (status >= 300 && status < 400) {
    return new DomainError(
      'internal',
      'REPOSITORY.UPSTREAM_REDIRECT',
      `The repository instance answered ${path} with a redirect (HTTP ${status}), which this service does not follow so that the link's key is never sent to another address. ` +
        'Set REPOSITORY_API_URL to the final address of the instance API.',
    );
  }
  return new DomainError(
    'internal',
    'REPOSITORY.UPSTREAM_REJECTED_REQUEST',
    `The repository instance rejected this service's request to ${path} (${what}): the two sides disagree on the instance API. ` +
      'Retrying will not help: check REPOSITORY_API_URL and that both deployments run compatible versions.',
  );
}

/** A 2xx answer this service cannot read: the instance may run an incompatible version, or be a proxy's page. */
function badResponse(path: string, problem: string): DomainError {
  return DomainError.unavailable(
    'REPOSITORY.UPSTREAM_BAD_RESPONSE',
    `The repository instance answered ${path} with a body this service cannot read (${problem}); retry shortly, and check REPOSITORY_API_URL and both deployments' versions if it persists.`,
  );
}

function remoteDocument(path: string, value: unknown, where: string): RemoteDocument {
  if (!isObject(value)) throw badResponse(path, `${where} is not an object`);
  const { id, name, url, state, extraproperties, created_at } = value;
  if (typeof id !== 'string' || typeof name !== 'string' || typeof state !== 'string' || typeof created_at !== 'string') {
    throw badResponse(path, `${where} lacks a string id, name, state or created_at`);
  }
  if (url !== undefined && url !== null && typeof url !== 'string') throw badResponse(path, `${where}.url is neither a string nor null`);
  if (extraproperties !== undefined && extraproperties !== null && !isObject(extraproperties)) throw badResponse(path, `${where}.extraproperties is not an object`);
  return { id, name, url: url ?? null, state, extraproperties: extraproperties ?? {}, createdAt: created_at };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** The instance's error `code`, only when it has the `CONTEXT.REASON` shape: nothing else of its body is repeated. */
function upstreamCode(text: string): string | undefined {
  try {
    const code = (JSON.parse(text) as { code?: unknown } | null)?.code;
    return typeof code === 'string' && code.length <= 80 && /^[A-Z][A-Z0-9_]*(\.[A-Z0-9_]+)+$/.test(code) ? code : undefined;
  } catch {
    return undefined;
  }
}

/** What a failure's cause keeps, for the logs: the error's class and the network code under it, never a URL or header. */
function summary(error: unknown): Error {
  const name = typeof (error as { name?: unknown })?.name === 'string' ? (error as { name: string }).name : 'unknown error';
  const code = (error as { cause?: { code?: unknown } })?.cause?.code;
  const summarized = new Error(typeof code === 'string' ? `${name} ${code}` : name);
  summarized.name = name;
  if (typeof code === 'string') Object.assign(summarized, { code });
  return summarized;
}
