/**
 * How each server scenario of `@modelcontextprotocol/conformance` 0.1.12 (`conformance list --server`)
 * applies to our `/mcp` endpoints: stateless Streamable HTTP with JSON responses, no session id,
 * capabilities `{ tools: {} }` only, tools = the catalogue's MCP operations (no resources, prompts,
 * logging, completions, sampling or elicitation). Most scenarios call the suite's own reference server
 * ("everything server") tools, resources and prompts, which a real product does not have.
 *
 * Every scenario the CLI lists must appear in exactly one of these maps, so a new suite version cannot
 * add a scenario without someone deciding whether it applies.
 */

/** Must pass: at least one SUCCESS check and no FAILURE. */
export const MUST_PASS: Record<string, string> = {
  'server-initialize': 'Initialize handshake and `initialized` notification: applies to any server.',
  ping: '`ping` answers `{}`: applies to any server.',
  'tools-list': '`tools/list` structure (name, description, inputSchema on every tool): applies to any server with tools.',
  'tools-call-error':
    'Calls `test_error_handling`, which we do not have; our answer to an unknown tool is an `isError: true` result whose text ' +
    'is the error body, built by the same code as every failing tool call, so the scenario checks our tool-error path.',
  'dns-rebinding-protection':
    'A foreign Host/Origin must get a 4xx and a localhost one a 2xx. The service refuses any `Origin` outside ALLOWED_ORIGINS ' +
    '(default: the PUBLIC_*_URL origins) with 403 AUTH.ORIGIN_NOT_ALLOWED on every authenticated route, /mcp included (it ' +
    'checks Origin, not Host). The suite sees the credential proxy as the server, so the test allows the proxy\'s origin.',
};

/**
 * Must not fail (WARNING allowed). These SEP-1699 scenarios need a session id and the reference tool
 * `test_reconnection`; against a stateless JSON-response server the suite reports a WARNING ("no session
 * id") and INFO checks, but a transport error (non-2xx to POST, no body) would be a FAILURE.
 */
export const MUST_NOT_FAIL: Record<string, string> = {
  'server-sse-polling': 'SEP-1699 SSE polling: needs sessions and `test_reconnection`; stateless JSON responses give WARNING/INFO only.',
  'server-sse-multiple-streams': 'SEP-1699 concurrent POST SSE streams: needs a session id; stateless gives a WARNING only.',
};

const referenceTool = (name: string) => `Calls the reference server's tool \`${name}\`, which we do not implement.`;
const noCapability = (capability: string, extra = '') =>
  `Needs the \`${capability}\` capability, which we do not declare (the SDK answers -32601 Method not found, as it should)${extra}.`;

/** Cannot apply to our server; run and reported, never asserted. */
export const NOT_APPLICABLE: Record<string, string> = {
  'logging-set-level': noCapability('logging'),
  'completion-complete': noCapability('completions', ' and the reference prompt `test_prompt_with_arguments`'),
  'tools-call-simple-text':
    `${referenceTool('test_simple_text')} It "passes" by accident: the check only looks for a text content item, and our unknown-tool error has one.`,
  'tools-call-image': referenceTool('test_image_content'),
  'tools-call-audio': referenceTool('test_audio_content'),
  'tools-call-embedded-resource': referenceTool('test_embedded_resource'),
  'tools-call-mixed-content': referenceTool('test_multiple_content_types'),
  'tools-call-with-logging': `${referenceTool('test_tool_with_logging')} Also needs the \`logging\` capability.`,
  'tools-call-with-progress': `${referenceTool('test_tool_with_progress')} Our tools send no progress notifications.`,
  'tools-call-sampling': `${referenceTool('test_sampling')} Our server never asks the client for sampling.`,
  'tools-call-elicitation': `${referenceTool('test_elicitation')} Our server never asks the client for elicitation.`,
  'elicitation-sep1034-defaults': referenceTool('test_elicitation_sep1034_defaults'),
  'elicitation-sep1330-enums': referenceTool('test_elicitation_sep1330_enums'),
  'json-schema-2020-12': `${referenceTool('json_schema_2020_12_tool')} (SEP-1613, pending in the suite).`,
  'resources-list': noCapability('resources'),
  'resources-read-text': noCapability('resources', ' and the reference resource `test://static-text`'),
  'resources-read-binary': noCapability('resources', ' and the reference resource `test://static-binary`'),
  'resources-templates-read': noCapability('resources', ' and the reference template `test://template/{id}/data`'),
  'resources-subscribe': noCapability('resources.subscribe'),
  'resources-unsubscribe': noCapability('resources.subscribe'),
  'prompts-list': noCapability('prompts'),
  'prompts-get-simple': noCapability('prompts', ' and the reference prompt `test_simple_prompt`'),
  'prompts-get-with-args': noCapability('prompts', ' and the reference prompt `test_prompt_with_arguments`'),
  'prompts-get-embedded-resource': noCapability('prompts', ' and the reference prompt `test_prompt_with_embedded_resource`'),
  'prompts-get-with-image': noCapability('prompts', ' and the reference prompt `test_prompt_with_image`'),
};

export type Applicability = 'must-pass' | 'must-not-fail' | 'not-applicable';

export function applicabilityOf(scenario: string): Applicability | undefined {
  if (scenario in MUST_PASS) return 'must-pass';
  if (scenario in MUST_NOT_FAIL) return 'must-not-fail';
  if (scenario in NOT_APPLICABLE) return 'not-applicable';
  return undefined;
}

export function reasonOf(scenario: string): string {
  return MUST_PASS[scenario] ?? MUST_NOT_FAIL[scenario] ?? NOT_APPLICABLE[scenario] ?? 'unclassified';
}
