import type { IndexationState } from './repository-instance';

/** A document of a repository instance (`kd_`), as ingested through the instance API or the CLI. */
export interface RepositoryDocument {
  id: string;
  instanceId: string;
  /** The caller's own identifier: ingesting the same external id again replaces the document. */
  externalId: string;
  name: string;
  url: string | null;
  owner: string | null;
  extraproperties: Record<string, unknown>;
  mediaType: string;
  sizeBytes: number;
  /** sha256 of the raw content: unchanged content is not parsed or embedded again. */
  contentHash: string;
  state: IndexationState;
  /** Why indexation failed (PARSING_ERROR, EMBEDDING_ERROR), in a sentence; null otherwise. */
  failureReason: string | null;
  createdAt: Date;
  updatedAt: Date;
  indexedAt: Date | null;
}

/** A retrievable excerpt of a document (`kn_`): one chunk of its structure. */
export interface SemanticNode {
  id: string;
  instanceId: string;
  documentId: string;
  position: number;
  text: string;
  headingPath: string[];
  charStart: number;
  charEnd: number;
}

export function documentView(d: RepositoryDocument) {
  return {
    id: d.id,
    instance_id: d.instanceId,
    external_id: d.externalId,
    name: d.name,
    url: d.url,
    owner: d.owner,
    extraproperties: d.extraproperties,
    media_type: d.mediaType,
    size_bytes: d.sizeBytes,
    content_hash: d.contentHash,
    state: d.state,
    failure_reason: d.failureReason,
    created_at: d.createdAt.toISOString(),
    updated_at: d.updatedAt.toISOString(),
    indexed_at: d.indexedAt?.toISOString() ?? null,
  };
}
export type DocumentView = ReturnType<typeof documentView>;

/** Limits of ingestion (BEHAVIOUR.md §1: ingestion documents its own). */
export const INGESTION_LIMITS = {
  /** Raw size of one file. */
  maxFileBytes: 10 * 1024 * 1024,
  /** Request body of the JSON ingestion call (base64 inflates by 4/3, plus metadata). */
  maxRequestBytes: '15mb',
  maxNameLength: 500,
  /** A document's link, as sent and once serialised (percent-encoded). */
  maxUrlLength: 2000,
  /** Raw size of all live documents of one instance (default; INGESTION_MAX_INSTANCE_BYTES overrides). */
  maxInstanceBytes: 2 * 1024 * 1024 * 1024,
} as const;

/**
 * A document's link as people and assistants follow it: `http:` or `https:` with a host, no spaces.
 * Anything else (`javascript:`, `data:`, `file:`) would be handed to a browser as a clickable `web_url`.
 */
export const WEB_URL_PATTERN = /^https?:\/\/[^\s/?#@]+(?:[/?#][^\s]*)?$/i;

/** Ingestion limits in force, from configuration. */
export class IngestionSettings {
  constructor(readonly maxInstanceBytes: number = INGESTION_LIMITS.maxInstanceBytes) {}
}
