/**
 * The 48 audit operations of the interface spec (part 4): name, REST path and whether the operation is
 * also an MCP tool. The single source of these three facts; controllers reference operations by name.
 * Generated from ../shared/spec/interface-spec.md; a unit test checks it still matches the spec.
 */
export const AUDIT_OPERATIONS = {
  audit_question_conflict_list: { path: '/audit/conflict/list-conflicts-for-instance', mcp: true },
  audit_question_conflict_get: { path: '/audit/conflict/get', mcp: true },
  audit_question_conflict_set_answer: { path: '/audit/conflict/set-answer', mcp: true },
  audit_question_conflict_close: { path: '/audit/conflict/set-managed', mcp: true },
  audit_question_conflict_ignore: { path: '/audit/conflict/set-ignored', mcp: true },
  audit_conflict_get_top_collaborators: { path: '/audit/conflict/get-top-collaborators', mcp: false },
  audit_full_audit_conflict_list: { path: '/audit/full-audit/list', mcp: true },
  audit_full_audit_have_to_show: { path: '/audit/full-audit/have-to-show', mcp: false },
  audit_full_audit_conflict_get: { path: '/audit/full-audit/detail', mcp: true },
  audit_full_audit_set_state: { path: '/audit/full-audit/set-state', mcp: false },
  audit_full_audit_conflict_set_answer: { path: '/audit/full-audit/set-expert-answer', mcp: true },
  audit_full_audit_conflict_close: { path: '/audit/full-audit/close', mcp: true },
  audit_full_audit_conflict_ignore: { path: '/audit/full-audit/ignore', mcp: true },
  audit_mandatory_question_list: { path: '/audit/mandatory-question/list', mcp: true },
  audit_mandatory_question_create: { path: '/audit/mandatory-question/create', mcp: true },
  audit_mandatory_question_set_answer: { path: '/audit/mandatory-question/set-answer', mcp: false },
  audit_mandatory_question_set_managed: { path: '/audit/mandatory-question/set-managed', mcp: false },
  audit_mandatory_question_set_ignored: { path: '/audit/mandatory-question/set-ignored', mcp: false },
  audit_mandatory_question_force_analyze: { path: '/audit/mandatory-question/force-analyze', mcp: true },
  audit_dashboard_get: { path: '/audit/dashboard/get-my-dashboard', mcp: true },
  audit_instance_list_for_user: { path: '/audit/instance/list-instances-for-user', mcp: false },
  audit_instance_get: { path: '/audit/instance/get-instance', mcp: false },
  audit_instance_get_svc_instances: { path: '/audit/instance/get-svc-instances', mcp: false },
  audit_instance_update_step: { path: '/audit/instance/update-instance-step', mcp: false },
  audit_instance_update_configuration: { path: '/audit/instance/update-configuration', mcp: false },
  audit_user_get_users: { path: '/audit/user/get-users-for-instance', mcp: false },
  audit_user_list_instances: { path: '/audit/user/list-user-instances', mcp: false },
  audit_user_add: { path: '/audit/user/add-user-to-instance', mcp: false },
  audit_user_remove: { path: '/audit/user/remove-user-from-instance', mcp: false },
  audit_user_set_admin: { path: '/audit/user/set-user-admin-for-instance', mcp: false },
  audit_user_set_normal: { path: '/audit/user/set-user-normal-for-instance', mcp: false },
  audit_user_is_admin: { path: '/audit/user/user-is-admin-for-instance', mcp: false },
  audit_missing_subject_list: { path: '/audit/missing-subject/list', mcp: true },
  audit_missing_subject_find: { path: '/audit/missing-subject/find', mcp: true },
  audit_missing_subject_list_questions: { path: '/audit/missing-subject/questions', mcp: true },
  audit_missing_subject_set_state: { path: '/audit/missing-subject/set-state', mcp: true },
  audit_missing_subject_generate_compagnon_document: { path: '/audit/missing-subject/generate-compagnon-document', mcp: true },
  audit_documents_list: { path: '/audit/document/list', mcp: false },
  audit_documents_set_owner: { path: '/audit/document/set-owner', mcp: false },
  audit_documents_get_by_ids: { path: '/audit/document/get-by-ids', mcp: true },
  audit_documents_get_recommendations: { path: '/audit/document/get-recommendations', mcp: true },
  audit_documents_count: { path: '/audit/document/count', mcp: false },
  audit_documents_list_with_state: { path: '/audit/document/list-with-state', mcp: false },
  audit_stats_get_filtered: { path: '/audit/stats/get-filtered-stats', mcp: false },
  audit_stats_get_daily: { path: '/audit/stats/get-daily-stats', mcp: false },
  audit_stats_get_user: { path: '/audit/stats/get-user-stats', mcp: false },
  audit_duplicate_list: { path: '/audit/duplicate/list-duplicates-for-instance', mcp: false },
  audit_duplicate_set_managed: { path: '/audit/duplicate/set-managed', mcp: false },
} as const;

export type AuditOperationName = keyof typeof AUDIT_OPERATIONS;
export const AUDIT_OPERATION_COUNT = 48;
export const AUDIT_MCP_TOOL_COUNT = 21;
