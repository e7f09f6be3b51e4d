/** One problem a schema library (zod, ajv) found in an input: where, and what. */
export interface SchemaIssue {
  path?: readonly PropertyKey[];
  message?: string;
}

/**
 * A schema library's issues as one readable sentence part, for people and agents:
 * "params.arguments: expected an object; params.name: required" (at most three, then a count).
 */
export function describeSchemaIssues(issues: readonly SchemaIssue[]): string {
  const described = issues.slice(0, 3).map((issue) => {
    const path = (issue.path ?? []).map(String).join('.');
    const message = (issue.message ?? 'invalid').replace(/\s+/g, ' ').slice(0, 200);
    return path ? `${path}: ${message}` : message;
  });
  return described.join('; ') + (issues.length > 3 ? ` (and ${issues.length - 3} more)` : '');
}

/** The issues inside a zod error's message (a JSON array), or undefined when the text is a sentence already. */
export function schemaIssuesIn(text: string): SchemaIssue[] | undefined {
  if (!/^\s*\[/.test(text)) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (!Array.isArray(parsed) || parsed.length === 0) return undefined;
    if (!parsed.every((issue) => typeof issue === 'object' && issue !== null && typeof (issue as SchemaIssue).message === 'string')) return undefined;
    return parsed as SchemaIssue[];
  } catch {
    return undefined;
  }
}
