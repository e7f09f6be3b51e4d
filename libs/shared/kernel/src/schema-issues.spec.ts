import { describeSchemaIssues, schemaIssuesIn } from './schema-issues';

describe('schema issues', () => {
  it('reads the issues of a zod message and says them in one line', () => {
    const zodMessage = JSON.stringify([
      { code: 'invalid_type', expected: 'string', received: 'undefined', path: ['grant_type'], message: 'Required' },
      { code: 'invalid_type', expected: 'record', path: ['params', 'arguments'], message: 'Invalid input:\n expected record, received null' },
    ], null, 2);
    const issues = schemaIssuesIn(zodMessage);
    expect(issues).toHaveLength(2);
    expect(describeSchemaIssues(issues ?? [])).toBe('grant_type: Required; params.arguments: Invalid input: expected record, received null');
  });

  it('leaves sentences alone and counts what it leaves out', () => {
    expect(schemaIssuesIn('client_id is required.')).toBeUndefined();
    expect(schemaIssuesIn('[not json')).toBeUndefined();
    expect(schemaIssuesIn('[1, 2]')).toBeUndefined();
    expect(describeSchemaIssues([{ message: 'a' }, { message: 'b' }, { message: 'c' }, { message: 'd' }, { message: 'e' }])).toBe('a; b; c (and 2 more)');
  });
});
