import { Injectable } from '@nestjs/common';
import { ActivityLog, Clock, DomainError, isGlobalAdmin, Page, PageRequest, Principal, UnitOfWork } from '@svc/kernel';
import { AuditInstanceAccess } from './audit-instance';
import { MembershipRepository, RepositoryLinkStore, UserDirectory } from './workspace.ports';

/** A document of the linked repository instance, as its API describes it. */
export interface RemoteDocument {
  id: string;
  name: string;
  url: string | null;
  state: string;
  extraproperties: Record<string, unknown>;
  createdAt: string;
}

export interface RepositoryLink {
  instanceId: string;
  svcInstanceId: string;
  apiKey: string;
}

/**
 * The repository instance an audit instance reads (ARCHITECTURE.md §4): this deployment's own
 * repository context, or a remote instance API reached with `instance-id` + `api-key`.
 * Throws DomainError `unavailable` when the repository cannot be reached.
 */
export abstract class RepositoryInstanceClient {
  /** Newest first; `state` filters, deleted documents only when asked for. */
  abstract list(link: RepositoryLink, page: PageRequest, state?: string): Promise<Page<RemoteDocument>>;
  /** The documents with these ids (≤ 100); unknown or deleted ids are left out. */
  abstract getMany(link: RepositoryLink, ids: string[]): Promise<RemoteDocument[]>;
  abstract count(link: RepositoryLink, state?: string): Promise<number>;
}

/** What the audit side keeps per document: its owner and the resolved web URL. */
export interface DocumentRecord {
  instanceId: string;
  documentId: string;
  ownerUserId: string | null;
  webUrl: string | null;
}

export abstract class DocumentRecordRepository {
  abstract getMany(instanceId: string, documentIds: string[]): Promise<DocumentRecord[]>;
  /** Ids of the documents the user owns on the instance, oldest assignment first. */
  abstract ownedBy(instanceId: string, userId: string): Promise<string[]>;
  abstract setOwner(instanceId: string, documentId: string, ownerUserId: string | null, at: Date): Promise<void>;
  abstract cacheWebUrls(instanceId: string, urls: { documentId: string; webUrl: string | null }[], at: Date): Promise<void>;
}

export interface AuditDocumentView {
  document_id: string;
  instance_id: string;
  document_name: string;
  document_owner: string | null;
  extraproperties: Record<string, unknown>;
  web_url: string | null;
  indexation_state: string;
}

const view = (instanceId: string, d: RemoteDocument, record?: DocumentRecord): AuditDocumentView => ({
  document_id: d.id,
  instance_id: instanceId,
  document_name: d.name,
  document_owner: record?.ownerUserId ?? null,
  extraproperties: d.extraproperties,
  // The repository's answer is the truth; the cached URL serves reads that do not ask it.
  web_url: d.url ?? null,
  indexation_state: d.state,
});

/** The repository link of an instance the caller was admitted to (the authorizer read the instance). */
@Injectable()
export class DocumentAccess {
  constructor(private readonly links: RepositoryLinkStore) {}

  async open(access: AuditInstanceAccess): Promise<RepositoryLink> {
    const stored = await this.links.get(access.instanceId);
    if (!stored) throw DomainError.conflict('WORKSPACE.NO_REPOSITORY', `Audit instance ${access.instanceId} has no linked repository instance.`);
    return { instanceId: access.instanceId, ...stored };
  }
}

/** Name and link of documents as the linked repository gives them now (unknown or deleted ones are left out). */
export type DocumentNames = Map<string, { name: string; url: string | null }>;

/** What the conflict views show of their documents: current names and links, read in pages of 100 ids. */
@Injectable()
export class ReadDocumentNames {
  constructor(
    private readonly documents: DocumentAccess,
    private readonly repository: RepositoryInstanceClient,
  ) {}

  async execute(access: AuditInstanceAccess, documentIds: string[]): Promise<DocumentNames> {
    const ids = [...new Set(documentIds)];
    if (ids.length === 0) return new Map();
    const link = await this.documents.open(access);
    const found: RemoteDocument[] = [];
    for (let i = 0; i < ids.length; i += 100) found.push(...(await this.repository.getMany(link, ids.slice(i, i + 100))));
    return new Map(found.map((d) => [d.id, { name: d.name, url: d.url }]));
  }
}

/**
 * The owner-visibility rule (BEHAVIOUR.md §3), the one place it is decided: with the instance's
 * owner flag on, a non-admin sees only the documents they own; the others do not exist for them.
 */
export abstract class DocumentVisibility {
  /** `all`, or the ids of the only documents the caller may see (oldest assignment first). */
  abstract visibleTo(access: AuditInstanceAccess, userId: string): Promise<'all' | string[]>;
}

@Injectable()
export class OwnerDocumentVisibility extends DocumentVisibility {
  constructor(private readonly records: DocumentRecordRepository) {
    super();
  }

  async visibleTo(access: AuditInstanceAccess, userId: string): Promise<'all' | string[]> {
    if (!access.instance.configuration.need_detect_owner_document_feature || access.isAdmin) return 'all';
    return this.records.ownedBy(access.instanceId, userId);
  }
}

/**
 * Documents of the linked repository with their audit records. With the owner flag on, a non-admin
 * sees only the documents they own (BEHAVIOUR.md §3); the others do not exist for them.
 */
@Injectable()
export class ListAuditDocuments {
  constructor(
    private readonly documents: DocumentAccess,
    private readonly visibility: DocumentVisibility,
    private readonly records: DocumentRecordRepository,
    private readonly repository: RepositoryInstanceClient,
  ) {}

  async execute(principal: Principal, access: AuditInstanceAccess, page: PageRequest, state?: string): Promise<Page<AuditDocumentView>> {
    const { instanceId } = access;
    const link = await this.documents.open(access);
    const owned = await this.visibility.visibleTo(access, principal.userId);
    if (owned !== 'all') {
      const documents = (await this.repository.getMany(link, owned)).filter((d) => !state || d.state === state);
      documents.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.id < b.id ? 1 : -1));
      const slice = documents.slice(page.offset, page.offset + page.limit);
      const records = await this.records.getMany(instanceId, slice.map((d) => d.id));
      return { items: slice.map((d) => view(instanceId, d, records.find((r) => r.documentId === d.id))), total: documents.length, ...page };
    }
    const result = await this.repository.list(link, page, state);
    const records = await this.records.getMany(instanceId, result.items.map((d) => d.id));
    return { ...result, items: result.items.map((d) => view(instanceId, d, records.find((r) => r.documentId === d.id))) };
  }
}

/** Name, URL and extra properties of up to 100 documents; resolving them caches their web URL. */
@Injectable()
export class GetAuditDocumentsByIds {
  constructor(
    private readonly documents: DocumentAccess,
    private readonly visibility: DocumentVisibility,
    private readonly records: DocumentRecordRepository,
    private readonly repository: RepositoryInstanceClient,
    private readonly clock: Clock,
  ) {}

  async execute(principal: Principal, access: AuditInstanceAccess, ids: string[]): Promise<AuditDocumentView[]> {
    const { instanceId } = access;
    const link = await this.documents.open(access);
    let wanted = [...new Set(ids)];
    const visible = await this.visibility.visibleTo(access, principal.userId);
    if (visible !== 'all') {
      const owned = new Set(visible);
      wanted = wanted.filter((id) => owned.has(id));
    }
    const documents = await this.repository.getMany(link, wanted);
    await this.records.cacheWebUrls(instanceId, documents.map((d) => ({ documentId: d.id, webUrl: d.url })), this.clock.now());
    const records = await this.records.getMany(instanceId, documents.map((d) => d.id));
    return documents.map((d) => view(instanceId, d, records.find((r) => r.documentId === d.id)));
  }
}

@Injectable()
export class CountAuditDocuments {
  constructor(
    private readonly documents: DocumentAccess,
    private readonly visibility: DocumentVisibility,
    private readonly repository: RepositoryInstanceClient,
  ) {}

  async execute(principal: Principal, access: AuditInstanceAccess, state?: string): Promise<number> {
    const link = await this.documents.open(access);
    const owned = await this.visibility.visibleTo(access, principal.userId);
    if (owned !== 'all') {
      return (await this.repository.getMany(link, owned)).filter((d) => (state ? d.state === state : d.state !== 'DELETED')).length;
    }
    return this.repository.count(link, state);
  }
}

/**
 * Assigns a document to a member, or unassigns it (null). Admins only; an admin (instance or
 * global) cannot own documents, since they see everything anyway (BEHAVIOUR.md §3).
 */
@Injectable()
export class SetDocumentOwner {
  constructor(
    private readonly documents: DocumentAccess,
    private readonly records: DocumentRecordRepository,
    private readonly repository: RepositoryInstanceClient,
    private readonly members: MembershipRepository,
    private readonly users: UserDirectory,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly activity: ActivityLog,
  ) {}

  async execute(principal: Principal, access: AuditInstanceAccess, documentId: string, ownerUserId: string | null): Promise<true> {
    const { instanceId } = access;
    const link = await this.documents.open(access);
    const [document] = await this.repository.getMany(link, [documentId]);
    if (!document) throw DomainError.notFound('REPOSITORY.DOCUMENT_NOT_FOUND', `Document ${documentId} does not exist.`);
    if (ownerUserId !== null) {
      const user = await this.users.find(principal.organizationId, ownerUserId);
      const membership = user ? await this.members.get(instanceId, ownerUserId) : null;
      if (!user || !membership) throw DomainError.notFound('WORKSPACE.MEMBER_NOT_FOUND', `User ${ownerUserId} is not a member of audit instance ${instanceId}.`);
      if (membership.isAdmin || isGlobalAdmin(user.roles)) {
        throw DomainError.forbidden('WORKSPACE.ADMIN_CANNOT_OWN', 'An admin cannot be made a document owner: admins see every document.');
      }
    }
    return this.uow.run(async (): Promise<true> => {
      const [before] = await this.records.getMany(instanceId, [documentId]);
      await this.records.setOwner(instanceId, documentId, ownerUserId, this.clock.now());
      await this.activity.record({ organizationId: principal.organizationId, instanceId, action: 'audit_documents_set_owner', subjectId: documentId, actor: principal, before: { owner_user_id: before?.ownerUserId ?? null }, after: { owner_user_id: ownerUserId } });
      return true;
    });
  }
}

/** Owners of documents of an instance (for the contexts that rank people by what they own); unowned documents are left out. */
@Injectable()
export class GetDocumentOwners {
  constructor(private readonly records: DocumentRecordRepository) {}

  async execute(instanceId: string, documentIds: string[]): Promise<Map<string, string>> {
    const records = await this.records.getMany(instanceId, [...new Set(documentIds)]);
    return new Map(records.filter((r) => r.ownerUserId !== null).map((r) => [r.documentId, r.ownerUserId!]));
  }
}
