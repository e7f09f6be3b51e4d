import { Injectable } from '@nestjs/common';
import { DomainError, Page, PageRequest } from '@svc/kernel';
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
 * and `api-key`. Any failure to reach it, or an unexpected answer, is `unavailable` (503 upstream).
 */
export class HttpRepositoryInstanceClient extends RepositoryInstanceClient {
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs = 10000,
  ) {
    super();
  }

  async list(link: RepositoryLink, page: PageRequest, state?: string): Promise<Page<RemoteDocument>> {
    const result = await this.call<Page<DocumentView>>(link, '/api/documents/list', { offset: page.offset, limit: page.limit, ...(state ? { state } : {}) });
    return { ...result, items: result.items.map(toRemote) };
  }

  async getMany(link: RepositoryLink, ids: string[]): Promise<RemoteDocument[]> {
    if (ids.length === 0) return [];
    const out: RemoteDocument[] = [];
    for (let i = 0; i < ids.length; i += 100) {
      out.push(...(await this.call<DocumentView[]>(link, '/api/documents/get-by-ids', { document_ids: ids.slice(i, i + 100) })).map(toRemote));
    }
    return out;
  }

  count(link: RepositoryLink, state?: string): Promise<number> {
    return this.call<number>(link, '/api/documents/count', state ? { state } : {});
  }

  private async call<T>(link: RepositoryLink, path: string, body: object): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'instance-id': link.svcInstanceId, 'api-key': link.apiKey },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch {
      throw DomainError.unavailable('REPOSITORY.UNREACHABLE', 'The repository instance cannot be reached; retry shortly.');
    }
    const payload = (await res.json().catch(() => null)) as { response?: T; code?: string } | null;
    if (!res.ok || !payload || !('response' in payload)) {
      throw DomainError.unavailable('REPOSITORY.UPSTREAM_ERROR', `The repository instance answered ${res.status}${payload?.code ? ` (${payload.code})` : ''}.`);
    }
    return payload.response as T;
  }
}
