import { Body, Controller } from '@nestjs/common';
import { COUNT, CREATED_INSTANCE_API_KEY, DOCUMENT_VIEW, INDEXATION_PROGRESS, INSTANCE_API_KEY_VIEW, LOGGED_SEARCHES, OK, REINDEXED, SEARCH_ANSWER, SEMANTIC_SEARCH, UPSERTED_DOCUMENT, arrayOf, pageOf } from '@svc/contracts';
import { CurrentPrincipal, DeclareOperation } from '@svc/http';
import { DomainError, pageRequest, Principal } from '@svc/kernel';
import {
  AnswerSearch,
  CountDocuments,
  CreateInstanceApiKey,
  DeleteDocument,
  SearchStats,
  GetDocument,
  GetDocumentsByIds,
  GetIndexationProgress,
  IngestDocument,
  ListDocuments,
  ListInstanceApiKeys,
  ReindexDocuments,
  RevokeInstanceApiKey,
  SearchSemanticNodes,
} from '@svc/repository-core';
import {
  CountDocumentsInput,
  CreateInstanceApiKeyInput,
  DateRangeInput,
  SearchListInput,
  SearchQueryInput,
  DocumentIdInput,
  DocumentIdsInput,
  EmptyInput,
  InstanceIdInput,
  InstanceDocumentInput,
  InstanceDocumentsByIdsInput,
  InstanceDocumentsInput,
  ListDocumentsInput,
  ListInstanceApiKeysInput,
  ReindexInput,
  RevokeInstanceApiKeyInput,
  SemanticSearchInput,
  UpsertDocumentInput,
} from './repository.dto';

const instanceApi = { permission: 'read', mcp: false, surface: 'instance' } as const;

/** The instance a credential of the instance API is bound to. */
function instanceOf(principal: Principal): string {
  if (!principal.instanceId) throw DomainError.unauthenticated('AUTH.INSTANCE_KEY_REQUIRED', 'Use the instance-id and api-key headers.');
  return principal.instanceId;
}

/** Document ingestion on the instance API (`instance-id` + `api-key` headers). */
@Controller()
export class InstanceDocumentsController {
  constructor(
    private readonly ingest: IngestDocument,
    private readonly remove: DeleteDocument,
    private readonly list: ListDocuments,
    private readonly get: GetDocument,
    private readonly reindex: ReindexDocuments,
    private readonly getByIds: GetDocumentsByIds,
    private readonly count: CountDocuments,
    private readonly progress: GetIndexationProgress,
  ) {}

  @DeclareOperation({ ...instanceApi, name: 'instance_indexation_progress', output: INDEXATION_PROGRESS, path: '/api/documents/progress', description: 'Indexation progress of the instance: documents per state, share finished.', input: EmptyInput })
  indexationProgress(@Body() _body: EmptyInput, @CurrentPrincipal() principal: Principal) {
    return this.progress.execute(instanceOf(principal));
  }

  @DeclareOperation({ ...instanceApi, name: 'instance_documents_get_by_ids', output: arrayOf(DOCUMENT_VIEW), path: '/api/documents/get-by-ids', description: 'Up to 100 documents by id; unknown or deleted ids are left out.', input: DocumentIdsInput })
  getDocumentsByIds(@Body() body: DocumentIdsInput, @CurrentPrincipal() principal: Principal) {
    return this.getByIds.execute(instanceOf(principal), body.document_ids);
  }

  @DeclareOperation({ ...instanceApi, name: 'instance_documents_count', output: COUNT, path: '/api/documents/count', description: 'Number of documents, in one indexation state or all but DELETED.', input: CountDocumentsInput })
  countDocuments(@Body() body: CountDocumentsInput, @CurrentPrincipal() principal: Principal) {
    return this.count.execute(instanceOf(principal), body.state);
  }

  @DeclareOperation({ ...instanceApi, name: 'instance_documents_upsert', output: UPSERTED_DOCUMENT, path: '/api/documents/upsert', description: 'Add a document, or replace the one with the same external_id; it is queued for indexation unless its content is unchanged. Markdown, plain text, HTML, PDF and DOCX; 10 MiB per file.', input: UpsertDocumentInput })
  upsert(@Body() body: UpsertDocumentInput, @CurrentPrincipal() principal: Principal) {
    if ((body.content_base64 === undefined) === (body.content_text === undefined)) {
      throw DomainError.invalid('REPOSITORY.CONTENT_REQUIRED', 'Send exactly one of content_base64 and content_text.', { errors: [{ field: 'content_base64', message: 'exactly one of content_base64 and content_text is required' }] });
    }
    const content = body.content_base64 !== undefined ? Buffer.from(body.content_base64, 'base64') : Buffer.from(body.content_text ?? '', 'utf8');
    return this.ingest.execute(instanceOf(principal), { externalId: body.external_id, name: body.name, url: body.url, owner: body.owner, extraproperties: body.extraproperties, mediaType: body.media_type, content });
  }

  @DeclareOperation({ ...instanceApi, name: 'instance_documents_delete', output: OK, path: '/api/documents/delete', description: 'Delete a document: it leaves the index at once.', input: DocumentIdInput })
  delete(@Body() body: DocumentIdInput, @CurrentPrincipal() principal: Principal) {
    return this.remove.execute(instanceOf(principal), principal.organizationId, body.document_id);
  }

  @DeclareOperation({ ...instanceApi, name: 'instance_documents_list', output: pageOf(DOCUMENT_VIEW), path: '/api/documents/list', description: 'Documents of the instance with their indexation state, newest first.', input: ListDocumentsInput })
  listDocuments(@Body() body: ListDocumentsInput, @CurrentPrincipal() principal: Principal) {
    return this.list.execute(instanceOf(principal), pageRequest(body.offset, body.limit), body.state);
  }

  @DeclareOperation({ ...instanceApi, name: 'instance_documents_get', output: DOCUMENT_VIEW, path: '/api/documents/get', description: 'One document with its indexation state and failure reason.', input: DocumentIdInput })
  getDocument(@Body() body: DocumentIdInput, @CurrentPrincipal() principal: Principal) {
    return this.get.execute(instanceOf(principal), body.document_id);
  }

  @DeclareOperation({ ...instanceApi, name: 'instance_documents_reindex', output: REINDEXED, path: '/api/documents/reindex', description: 'Queue one document, or every document of the instance, for indexation again.', input: ReindexInput })
  reindexDocuments(@Body() body: ReindexInput, @CurrentPrincipal() principal: Principal) {
    return this.reindex.execute(instanceOf(principal), body.document_id);
  }
}

const retrieval = { permission: 'retrieval', instanceField: 'instance_id', mcp: true, surface: 'resource' } as const;

/** The instance API's search: answers synthesised from the repository, and their statistics. */
@Controller()
export class InstanceSearchController {
  constructor(
    private readonly answer: AnswerSearch,
    private readonly stats: SearchStats,
  ) {}

  @DeclareOperation({ ...instanceApi, name: 'instance_search_query', output: SEARCH_ANSWER, path: '/api/search/query', description: 'Answer a question from the repository: the answer, its reason, a calibrated confident_rate, got_answer by the configured threshold, and the cited documents. Every query is logged.', input: SearchQueryInput })
  query(@Body() body: SearchQueryInput, @CurrentPrincipal() principal: Principal) {
    return this.answer.execute(instanceOf(principal), body.query, body.user);
  }

  @DeclareOperation({ ...instanceApi, name: 'instance_search_count_by_date', output: COUNT, path: '/api/search/stats/count-search-by-date', description: 'Searches between begin_date and end_date (inclusive; dates are whole UTC days).', input: DateRangeInput })
  countByDate(@Body() body: DateRangeInput, @CurrentPrincipal() principal: Principal) {
    return this.stats.countByDate(instanceOf(principal), body.begin_date, body.end_date, false);
  }

  @DeclareOperation({ ...instanceApi, name: 'instance_search_count_answered_by_date', output: COUNT, path: '/api/search/stats/count-answered-search-by-date', description: 'Answered searches between begin_date and end_date (inclusive).', input: DateRangeInput })
  countAnsweredByDate(@Body() body: DateRangeInput, @CurrentPrincipal() principal: Principal) {
    return this.stats.countByDate(instanceOf(principal), body.begin_date, body.end_date, true);
  }

  @DeclareOperation({ ...instanceApi, name: 'instance_search_count', output: COUNT, path: '/api/search/stats/count-search', description: 'All searches of the instance.', input: EmptyInput })
  count(@Body() _body: EmptyInput, @CurrentPrincipal() principal: Principal) {
    return this.stats.count(instanceOf(principal), false);
  }

  @DeclareOperation({ ...instanceApi, name: 'instance_search_count_answered', output: COUNT, path: '/api/search/stats/count-answered-search', description: 'Answered searches of the instance.', input: EmptyInput })
  countAnswered(@Body() _body: EmptyInput, @CurrentPrincipal() principal: Principal) {
    return this.stats.count(instanceOf(principal), true);
  }

  @DeclareOperation({ ...instanceApi, name: 'instance_search_list', output: LOGGED_SEARCHES, path: '/api/search/stats/list-search', description: 'Logged searches, oldest first: id, answer_text ("" when unanswered), query, user_id, date.', input: SearchListInput })
  list(@Body() body: SearchListInput, @CurrentPrincipal() principal: Principal) {
    const page = pageRequest(body.offset, body.limit);
    return this.stats.list(instanceOf(principal), page.offset, page.limit);
  }
}

/** Retrieval REST API and MCP tools (bearer credentials; every role but BILLING; instance membership applies). */
@Controller()
export class RetrievalController {
  constructor(
    private readonly search: SearchSemanticNodes,
    private readonly list: ListDocuments,
    private readonly get: GetDocument,
    private readonly getByIds: GetDocumentsByIds,
    private readonly progress: GetIndexationProgress,
  ) {}

  @DeclareOperation({ ...retrieval, mcp: false, name: 'retrieval_indexation_progress', output: INDEXATION_PROGRESS, path: '/retrieval/instances/indexation-progress', description: 'Indexation progress of an instance: documents per state, share finished.', input: InstanceIdInput })
  indexationProgress(@Body() body: InstanceIdInput) {
    return this.progress.execute(body.instance_id);
  }

  @DeclareOperation({ ...retrieval, name: 'retrieval_documents_list', output: pageOf(DOCUMENT_VIEW), path: '/retrieval/documents/list', description: 'Documents of an instance with their indexation state, newest first.', input: InstanceDocumentsInput })
  listDocuments(@Body() body: InstanceDocumentsInput) {
    return this.list.execute(body.instance_id, pageRequest(body.offset, body.limit), body.state);
  }

  @DeclareOperation({ ...retrieval, name: 'retrieval_documents_get', output: DOCUMENT_VIEW, path: '/retrieval/documents/get', description: 'One document of an instance: name, URL, owner, extra properties, indexation state.', input: InstanceDocumentInput })
  getDocument(@Body() body: InstanceDocumentInput) {
    return this.get.execute(body.instance_id, body.document_id);
  }

  @DeclareOperation({ ...retrieval, name: 'retrieval_documents_get_by_ids', output: arrayOf(DOCUMENT_VIEW), path: '/retrieval/documents/get-by-ids', description: 'Up to 100 documents of an instance by id; unknown ids are left out.', input: InstanceDocumentsByIdsInput })
  getDocumentsByIds(@Body() body: InstanceDocumentsByIdsInput) {
    return this.getByIds.execute(body.instance_id, body.document_ids);
  }

  @DeclareOperation({
    ...retrieval,
    name: 'retrieval_semantic_nodes_search', output: SEMANTIC_SEARCH,
    path: '/retrieval/semantic-nodes/search',
    description: 'Hybrid search (full-text and vector ranks fused by reciprocal rank) over the indexed semantic nodes of an instance. No LLM call.',
    input: SemanticSearchInput,
  })
  semanticSearch(@Body() body: SemanticSearchInput) {
    return this.search.execute(body.instance_id, body.query, body.limit ?? 10);
  }
}

const exposure = { permission: 'exposure', instanceField: 'instance_id', mcp: false, surface: 'resource' } as const;

/**
 * Instance API keys of a repository instance (bearer credentials; ADMIN and ACTIVATION_MANAGER, who
 * must be members of the instance unless ADMIN). The raw key is in the create response only.
 */
@Controller()
export class InstanceApiKeysController {
  constructor(
    private readonly create: CreateInstanceApiKey,
    private readonly list: ListInstanceApiKeys,
    private readonly revoke: RevokeInstanceApiKey,
  ) {}

  @DeclareOperation({
    ...exposure,
    name: 'retrieval_instance_api_keys_create', output: CREATED_INSTANCE_API_KEY,
    path: '/retrieval/instances/api-keys/create',
    description: 'Create an instance API key (instance-id + api-key headers of the instance API); the raw key is in this response once and never again.',
    input: CreateInstanceApiKeyInput,
  })
  createKey(@Body() body: CreateInstanceApiKeyInput, @CurrentPrincipal() principal: Principal) {
    return this.create.execute(principal, { instanceId: body.instance_id, name: body.name });
  }

  @DeclareOperation({ ...exposure, name: 'retrieval_instance_api_keys_list', output: pageOf(INSTANCE_API_KEY_VIEW), path: '/retrieval/instances/api-keys/list', description: 'Instance API keys of an instance, revoked ones included, newest first; never their secrets.', input: ListInstanceApiKeysInput })
  listKeys(@Body() body: ListInstanceApiKeysInput, @CurrentPrincipal() principal: Principal) {
    return this.list.execute(principal, body.instance_id, pageRequest(body.offset, body.limit));
  }

  @DeclareOperation({ ...exposure, name: 'retrieval_instance_api_keys_revoke', output: OK, path: '/retrieval/instances/api-keys/revoke', description: 'Revoke an instance API key: the instance API refuses it from the next request on. Revoking a revoked key changes nothing.', input: RevokeInstanceApiKeyInput })
  revokeKey(@Body() body: RevokeInstanceApiKeyInput, @CurrentPrincipal() principal: Principal) {
    return this.revoke.execute(principal, body.instance_id, body.api_key_id);
  }
}
