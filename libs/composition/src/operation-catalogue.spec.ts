import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AUDIT_MCP_TOOL_COUNT, AUDIT_OPERATION_COUNT, AUDIT_OPERATIONS } from '@svc/contracts';
import { declaredOperations, jsonSchemaOf } from '@svc/http';
import { AUDIT_EXTENSIONS, auditAccessRule } from '@svc/kernel';
// Loading the controllers declares their operations.
import '@svc/identity-infra';
import '@svc/workspace-infra';
import '@svc/conflicts-infra';
import '@svc/mandatory-questions-infra';
import '@svc/full-audit-infra';
import '@svc/duplicates-infra';
import '@svc/missing-subjects-infra';
import '@svc/stats-infra';

/** Operations served under /audit that the spec does not list, each documented in docs/decisions. */
const EXTENSIONS: readonly string[] = AUDIT_EXTENSIONS;
const SPEC = join(__dirname, '..', '..', '..', '..', 'shared', 'spec', 'interface-spec.md');

describe('operation catalogue', () => {
  const declared = declaredOperations();
  const auditDeclared = declared.filter((op) => op.path.startsWith('/audit/'));
  const implemented = new Set(auditDeclared.map((op) => op.name));
  const specNames = Object.keys(AUDIT_OPERATIONS);

  it('lists exactly the 48 operations and 21 MCP tools of the spec', () => {
    expect(specNames).toHaveLength(AUDIT_OPERATION_COUNT);
    expect(Object.values(AUDIT_OPERATIONS).filter((op) => op.mcp)).toHaveLength(AUDIT_MCP_TOOL_COUNT);
  });

  it('still matches the interface spec table (name, path, MCP flag)', () => {
    // The spec lives in ../shared beside the repository (as on CI); without it this check cannot run.
    if (!existsSync(SPEC)) throw new Error(`${SPEC} not found: clone the repository next to shared/`);
    const spec = readFileSync(SPEC, 'utf8');
    const part = spec.slice(spec.indexOf('## 4. Endpoints'), spec.indexOf('### Retrieval, platform and auth'));
    const rows = [...part.matchAll(/^\| (audit_\w+) \| (\/audit\/[\w/-]+) \| .*\| (yes|no[^|]*) \|$/gm)];
    expect(Object.fromEntries(rows.map(([, name, path, mcp]) => [name, { path, mcp: mcp === 'yes' }]))).toEqual(AUDIT_OPERATIONS);
  });

  it('serves nothing under /audit that is neither in the spec nor a documented extension', () => {
    const unknown = [...implemented].filter((name) => !(name in AUDIT_OPERATIONS) && !EXTENSIONS.includes(name));
    expect(unknown).toEqual([]);
  });

  it('derives every implemented operation from the spec entry (path, MCP flag) and gives it a strict schema', () => {
    for (const op of auditDeclared.filter((o) => o.name in AUDIT_OPERATIONS)) {
      const spec = AUDIT_OPERATIONS[op.name as keyof typeof AUDIT_OPERATIONS];
      expect({ name: op.name, path: op.path, mcp: op.mcp }).toEqual({ name: op.name, path: spec.path, mcp: spec.mcp });
      expect(jsonSchemaOf(op.input)).toMatchObject({ type: 'object', additionalProperties: false });
    }
  });

  it('takes who may call each operation under /audit from the role matrix (AUDIT_ACCESS, ADR 0028)', () => {
    const rows = auditDeclared.map((op) => {
      const rule = auditAccessRule(op.name);
      return {
        name: op.name,
        declared: { permission: op.permission, instanceField: op.instanceField, instanceAdmin: op.instanceAdmin ?? false },
        rule: rule && { permission: rule.permission, instanceField: rule.instance === 'none' ? undefined : 'instance_id', instanceAdmin: rule.instance === 'admin' },
      };
    });
    expect(rows.length).toBeGreaterThanOrEqual(18);
    for (const { name, declared, rule } of rows) expect({ name, access: declared }).toEqual({ name, access: rule });
  });

  it('implements the 12 instance and user operations', () => {
    const foundation = specNames.filter((n) => n.startsWith('audit_instance_') || n.startsWith('audit_user_'));
    expect(foundation).toHaveLength(12);
    expect(foundation.filter((n) => !implemented.has(n))).toEqual([]);
  });

  it('implements all 48 operations and all 21 MCP tools of the spec', () => {
    const missing = specNames.filter((n) => !implemented.has(n));
    expect(missing).toEqual([]);
    const tools = auditDeclared.filter((op) => op.mcp).map((op) => op.name);
    expect(new Set(tools).size).toBe(AUDIT_MCP_TOOL_COUNT);
  });
});
