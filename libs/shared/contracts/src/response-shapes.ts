import type { AuditOperationName } from './audit-operations';

/**
 * What operations return, as JSON Schema (2020-12, the dialect of OpenAPI 3.1): the `response` of the
 * success envelope. `/openapi.json` publishes them; the e2e test kit checks every 2xx body it receives
 * against them, so a shape here cannot drift from what controllers send.
 */
export type JsonSchema = Readonly<Record<string, unknown>>;

const string: JsonSchema = { type: 'string' };
const nullableString: JsonSchema = { type: ['string', 'null'] };
const dateTime: JsonSchema = { type: 'string', format: 'date-time' };
const date: JsonSchema = { type: 'string', format: 'date' };
const nullableDateTime: JsonSchema = { type: ['string', 'null'], format: 'date-time' };
const integer: JsonSchema = { type: 'integer', minimum: 0 };
const boolean: JsonSchema = { type: 'boolean' };
const roles: JsonSchema = { type: 'array', items: string };

/** An object whose listed fields are all present (more may be added later without breaking clients). */
export function object(properties: Record<string, JsonSchema>, description?: string): JsonSchema {
  return { type: 'object', required: Object.keys(properties), properties, ...(description ? { description } : {}) };
}

export function arrayOf(items: JsonSchema): JsonSchema {
  return { type: 'array', items };
}

/** A page of a list (BEHAVIOUR.md: offset pagination with the total). */
export function pageOf(item: JsonSchema): JsonSchema {
  return object({ items: arrayOf(item), total: integer, offset: integer, limit: integer });
}

export const OK: JsonSchema = { const: true, description: 'The change was made (or there was nothing to change).' };
export const COUNT: JsonSchema = { ...integer, description: 'A number of items.' };
export const FLAG: JsonSchema = boolean;

export const INSTANCE_VIEW = object({
  instance_id: string,
  name: string,
  step: string,
  configuration: object({ need_detect_owner_document_feature: boolean }),
  organization_id: string,
  created_at: dateTime,
  updated_at: dateTime,
});

export const INSTANCE_USER_VIEW = object({ user_id: string, name: string, email: nullableString, is_admin: boolean, added_at: dateTime });

export const SVC_INSTANCES = arrayOf(object({ svc_instance_id: string, api_key: string }));

export const AUDIT_DOCUMENT_VIEW = object({
  document_id: string,
  instance_id: string,
  document_name: string,
  document_owner: nullableString,
  extraproperties: { type: 'object' },
  web_url: nullableString,
  indexation_state: string,
});

const stringArray = arrayOf(string);
const DOCUMENT_REF = { document_id: string, document_name: string, document_url: nullableString };

export const MANDATORY_QUESTION_VIEW = object({
  id: string,
  instance_id: string,
  question: string,
  state: { enum: ['PENDING', 'ANALYZING', 'CONFLICTS', 'NO_CONFLICT', 'REFUSED', 'MANAGED', 'IGNORED'] },
  answer: nullableString,
  conflict_count: integer,
  compagnon_questions: stringArray,
  created_at: dateTime,
  updated_at: dateTime,
  analyzed_at: nullableDateTime,
  version: integer,
});

export const CREATED_QUESTION = object({ id: string, state: { enum: ['PENDING'] } });

export const RECOMMENDATION_VIEW = object({
  id: string,
  conflict_id: string,
  ...DOCUMENT_REF,
  action: { enum: ['KEEP', 'UPDATE', 'DELETE'] },
  excerpt: string,
  proposed_text: nullableString,
  reason: string,
  estimated_seconds: integer,
});

export const QUESTION_CONFLICT_VIEW = object({
  id: string,
  instance_id: string,
  question_id: string,
  question: string,
  state: { enum: ['OPEN', 'ANSWERED', 'RECOMMENDATIONS_READY', 'MANAGED', 'IGNORED'] },
  answer: nullableString,
  scope: stringArray,
  answer_groups: arrayOf(
    object({
      answer: string,
      key: string,
      excerpts: arrayOf(object({ semantic_node_id: string, ...DOCUMENT_REF, document_date: nullableString, text: string, extracted_answer: string, answer_start: integer, answer_end: integer, normalized_value: string, scope: stringArray })),
    }),
  ),
  documents: arrayOf(object({ ...DOCUMENT_REF, is_newest: boolean })),
  compagnon_questions: stringArray,
  recommendations: arrayOf(RECOMMENDATION_VIEW),
  created_at: dateTime,
  updated_at: dateTime,
  answered_at: nullableDateTime,
  closed_at: nullableDateTime,
  version: integer,
});

const COMPANION_RECOMMENDATION_VIEW = object({
  id: string,
  ...DOCUMENT_REF,
  action: { enum: ['KEEP', 'UPDATE', 'DELETE'] },
  excerpt: string,
  proposed_text: nullableString,
  reason: string,
  estimated_seconds: integer,
});

export const FULL_AUDIT_CONFLICT_VIEW = object({
  id: string,
  instance_id: string,
  state: { enum: ['DETECTED', 'REDETECTED', 'MANAGED', 'IGNORED', 'DISAPPEARED'] },
  subject: string,
  explanation: string,
  attribute: string,
  documents: arrayOf(object(DOCUMENT_REF)),
  excerpts: arrayOf(object({ semantic_node_id: string, ...DOCUMENT_REF, text: string, value: string, value_start: integer, value_end: integer, scope: stringArray })),
  compagnon_questions: stringArray,
  linked_questions: arrayOf(object({ question_id: string, question: string })),
  is_important: boolean,
  answer: nullableString,
  compagnon_recommendations: arrayOf(COMPANION_RECOMMENDATION_VIEW),
  created_at: dateTime,
  updated_at: dateTime,
  last_seen_at: dateTime,
  answered_at: nullableDateTime,
  version: integer,
});

const FULL_AUDIT_SCAN_PROGRESS = {
  type: ['object', 'null'],
  required: ['state', 'reason', 'documents', 'chunks', 'chunks_done', 'started_at', 'finished_at', 'findings'],
  properties: {
    state: { enum: ['RUNNING', 'COMPLETED', 'ABANDONED'] },
    reason: { enum: ['instance', 'schedule', 'demand', 'settle'] },
    documents: integer,
    chunks: integer,
    chunks_done: integer,
    started_at: dateTime,
    finished_at: nullableDateTime,
    findings: { type: ['integer', 'null'] },
    model: object(
      { calls: integer, budget_calls: integer, input_tokens: integer, output_tokens: integer, stopped: { enum: ['budget', 'outage', null] }, estimated_calls: integer },
      "Only with model-led discovery (a model configured, FULL_AUDIT_MODEL_DISCOVERY on): the model calls and tokens the scan used, its budget (FULL_AUDIT_MODEL_BUDGET_CALLS), why the model work stopped early (budget or outage: the next scan resumes it) or null, and the calls the scan is estimated to take (while documents are read: the calls so far scaled to every chunk, judging on top).",
    ),
  },
  description: 'The running scan, else the last one; null before the first.',
};

/** The implemented audit operations (the others get theirs with their issues). */
const similarity: JsonSchema = { type: 'number', minimum: 0, maximum: 1 };

export const DUPLICATE_CLUSTER_VIEW = object(
  {
    id: string,
    instance_id: string,
    documents: arrayOf(object({ document_id: string, document_name: string, document_url: nullableString })),
    canonical_hash: string,
    similarity,
    exact: boolean,
    state: { enum: ['DETECTED', 'MANAGED', 'RESOLVED'] },
    created_at: dateTime,
    updated_at: dateTime,
    managed_at: nullableDateTime,
    last_verification_at: nullableDateTime,
  },
  'A duplicate cluster: exact copies (exact, similarity 1) or near-duplicates with their lowest pairwise Jaccard similarity.',
);

export const MISSING_SUBJECT_VIEW = object(
  {
    id: string,
    instance_id: string,
    subject: string,
    state: { enum: ['PENDING', 'MANAGED', 'IGNORED'] },
    question_count: integer,
    compagnon_proposition: nullableString,
    created_at: dateTime,
    updated_at: dateTime,
  },
  'A missing subject: what people ask that the repository does not answer, with the cached companion-document draft.',
);

const DAILY_COUNTERS = {
  conflicts_detected: integer,
  conflicts_answered: integer,
  conflicts_managed: integer,
  conflicts_ignored: integer,
  full_audit_managed: integer,
  full_audit_ignored: integer,
  questions_created: integer,
  questions_managed: integer,
  missing_subjects_managed: integer,
  duplicates_managed: integer,
};

export const FILTERED_STATS = object(
  {
    total_questions: integer,
    questions_with_conflicts_to_manage: integer,
    questions_with_conflicts_analyzed: integer,
    managed_questions: integer,
    questions_without_conflicts: integer,
    missing_subjects_count: integer,
    total_conflicts: integer,
    managed_important_conflicts: integer,
    documents_to_update_count: integer,
    total_documents: integer,
    documents_with_unmanaged_conflicts: integer,
    estimated_total_update_time: { ...integer, description: 'Seconds to apply every pending UPDATE/DELETE recommendation.' },
    questions_not_analyzed_yet: integer,
  },
  'What is left to do on an instance (BEHAVIOUR.md §9).',
);

const NOT_SHOWN: JsonSchema = { const: false, description: 'An admin asked about another admin: their activity is not shown.' };

export const DAILY_STATS: JsonSchema = {
  oneOf: [arrayOf(object({ date, ...DAILY_COUNTERS }, 'What was done on one UTC day.')), NOT_SHOWN],
};

export const USER_STATS: JsonSchema = {
  oneOf: [object({ user_id: string, begin_date: date, end_date: date, ...DAILY_COUNTERS }, 'What one user did over the range.'), NOT_SHOWN],
};

export const DASHBOARD_ENTRY = object(
  {
    instance_id: string,
    name: string,
    step: string,
    unresolved_question_conflicts: integer,
    unresolved_full_audit_conflicts: integer,
    pending_mandatory_questions: integer,
    pending_missing_subjects: integer,
    pending_duplicate_clusters: integer,
  },
  'One accessible audit instance and what is left to do on it.',
);

export const AUDIT_RESPONSES: Record<AuditOperationName, JsonSchema> = {
  audit_instance_list_for_user: pageOf(INSTANCE_VIEW),
  audit_instance_get: INSTANCE_VIEW,
  audit_instance_get_svc_instances: SVC_INSTANCES,
  audit_instance_update_step: OK,
  audit_instance_update_configuration: OK,
  audit_user_get_users: pageOf(INSTANCE_USER_VIEW),
  audit_user_list_instances: pageOf(INSTANCE_VIEW),
  audit_user_add: OK,
  audit_user_remove: OK,
  audit_user_set_admin: OK,
  audit_user_set_normal: OK,
  audit_user_is_admin: FLAG,
  audit_documents_list: pageOf(AUDIT_DOCUMENT_VIEW),
  audit_documents_set_owner: OK,
  audit_documents_get_by_ids: arrayOf(AUDIT_DOCUMENT_VIEW),
  audit_documents_count: COUNT,
  audit_documents_list_with_state: pageOf(AUDIT_DOCUMENT_VIEW),
  audit_documents_get_recommendations: arrayOf(RECOMMENDATION_VIEW),
  audit_mandatory_question_list: pageOf(MANDATORY_QUESTION_VIEW),
  audit_mandatory_question_create: CREATED_QUESTION,
  audit_mandatory_question_set_answer: OK,
  audit_mandatory_question_set_managed: OK,
  audit_mandatory_question_set_ignored: OK,
  audit_mandatory_question_force_analyze: OK,
  audit_question_conflict_list: pageOf(QUESTION_CONFLICT_VIEW),
  audit_question_conflict_get: QUESTION_CONFLICT_VIEW,
  audit_question_conflict_set_answer: object({ recommendations: arrayOf(RECOMMENDATION_VIEW) }),
  audit_question_conflict_close: OK,
  audit_question_conflict_ignore: OK,
  audit_full_audit_conflict_list: pageOf(FULL_AUDIT_CONFLICT_VIEW),
  audit_full_audit_have_to_show: object({ show: boolean, scan: FULL_AUDIT_SCAN_PROGRESS, awaiting_model: { ...integer, description: "Candidates awaiting the model's verdicts in a batch; raised once it confirms them." } }),
  audit_full_audit_conflict_get: FULL_AUDIT_CONFLICT_VIEW,
  audit_full_audit_set_state: OK,
  audit_full_audit_conflict_set_answer: object({ recommendations: arrayOf(COMPANION_RECOMMENDATION_VIEW) }),
  audit_full_audit_conflict_close: OK,
  audit_full_audit_conflict_ignore: OK,
  audit_duplicate_list: pageOf(DUPLICATE_CLUSTER_VIEW),
  audit_duplicate_set_managed: OK,
  audit_missing_subject_list: pageOf(MISSING_SUBJECT_VIEW),
  audit_missing_subject_find: MISSING_SUBJECT_VIEW,
  audit_missing_subject_list_questions: arrayOf(object({ id: string, question: string, answer: nullableString, source: string })),
  audit_missing_subject_set_state: OK,
  audit_missing_subject_generate_compagnon_document: object({ compagnon_proposition: string, cached: boolean }),
  audit_conflict_get_top_collaborators: arrayOf(object({ user_id: string, shared_conflict_count: integer })),
  audit_stats_get_filtered: FILTERED_STATS,
  audit_stats_get_daily: DAILY_STATS,
  audit_stats_get_user: USER_STATS,
  audit_dashboard_get: arrayOf(DASHBOARD_ENTRY),
};

// Platform (organisation administration, key exchange).

export const API_KEY_VIEW = object({
  id: string,
  name: string,
  user_id: string,
  roles,
  expires_at: nullableDateTime,
  revoked_at: nullableDateTime,
  last_used_at: nullableDateTime,
  created_at: dateTime,
});
export const CREATED_API_KEY: JsonSchema = { ...API_KEY_VIEW, required: [...(API_KEY_VIEW.required as string[]), 'api_key'], properties: { ...(API_KEY_VIEW.properties as object), api_key: { type: 'string', description: 'The raw key: shown once, never again.' } } };
export const USER_VIEW = object({ id: string, organization_id: string, email: nullableString, name: string, roles, kind: { enum: ['person', 'service'] }, created_at: dateTime });
export const EXCHANGED_TOKEN = object({ access_token: string, token_type: { const: 'bearer' }, expires_in: integer });

// Repository: the instance API and the retrieval API.

export const DOCUMENT_VIEW = object({
  id: string,
  instance_id: string,
  external_id: nullableString,
  name: string,
  url: nullableString,
  owner: nullableString,
  extraproperties: { type: 'object' },
  media_type: string,
  size_bytes: integer,
  content_hash: string,
  state: { enum: ['PENDING', 'PARSING', 'INDEXED', 'PARSING_ERROR', 'EMBEDDING_ERROR', 'DELETED'] },
  failure_reason: nullableString,
  created_at: dateTime,
  updated_at: dateTime,
  indexed_at: nullableDateTime,
});
export const UPSERTED_DOCUMENT: JsonSchema = {
  ...DOCUMENT_VIEW,
  required: [...(DOCUMENT_VIEW.required as string[]), 'reindexing'],
  properties: { ...(DOCUMENT_VIEW.properties as object), reindexing: { type: 'boolean', description: 'True when the content changed and is queued for indexation.' } },
};
export const INDEXATION_PROGRESS = object({
  instance_id: string,
  total: integer,
  by_state: { type: 'object', additionalProperties: integer },
  percent_done: { type: 'number', minimum: 0, maximum: 100 },
  done: boolean,
});
export const REINDEXED = object({ queued: integer });
export const SEARCH_ANSWER = object({
  query: string,
  answer: string,
  reason: string,
  confident_rate: { type: 'number', minimum: 0, maximum: 1 },
  got_answer: boolean,
  documents: arrayOf(object({ id: string, name: string, url: string })),
});
export const LOGGED_SEARCHES = arrayOf(object({ id: string, answer_text: string, query: string, user_id: string, date: dateTime }));
export const SEMANTIC_SEARCH = object({
  semantic_nodes: arrayOf(object({ id: string, document_id: string, text: string, score: { type: 'number' }, position: integer })),
  documents_contents: arrayOf(object({ document_id: string, document_name: string, document_url: nullableString, excerpts: arrayOf(string) })),
});
export const INSTANCE_API_KEY_VIEW = object({ id: string, instance_id: string, name: string, created_at: dateTime, revoked_at: nullableDateTime });
export const CREATED_INSTANCE_API_KEY: JsonSchema = {
  ...INSTANCE_API_KEY_VIEW,
  required: [...(INSTANCE_API_KEY_VIEW.required as string[]), 'api_key'],
  properties: { ...(INSTANCE_API_KEY_VIEW.properties as object), api_key: { type: 'string', description: 'The raw key: shown once, never again.' } },
};
