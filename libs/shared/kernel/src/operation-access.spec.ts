import { AUDIT_OPERATIONS } from '@svc/contracts';
import { AUDIT_ACCESS, AUDIT_EXTENSIONS, auditAccessRule, InstanceStanding, standingRefusal } from './operation-access';
import { Role, ROLES, rolesAllow } from './roles';
import { requiredScope } from './scopes';

const STANDINGS: Record<'non-member' | 'member' | 'admin', InstanceStanding> = {
  'non-member': { isMember: false, isInstanceAdmin: false },
  member: { isMember: true, isInstanceAdmin: false },
  admin: { isMember: true, isInstanceAdmin: true },
};

/** One row per role: 'Y' or '-' for non-member, member, instance admin (in that order). */
function row(operation: keyof typeof AUDIT_ACCESS, role: Role): string {
  const rule = AUDIT_ACCESS[operation];
  return Object.values(STANDINGS)
    .map((standing) => (rolesAllow([role], rule.permission) && standingRefusal(rule.instance, [role], standing) === null ? 'Y' : '-'))
    .join('');
}
const matrix = (operation: keyof typeof AUDIT_ACCESS) => Object.fromEntries(ROLES.map((role) => [role, row(operation, role)]));

describe('role matrix (ADR 0028)', () => {
  it('holds a rule for each of the 48 operations of the spec and each extension, and nothing else', () => {
    expect(Object.keys(AUDIT_ACCESS).sort()).toEqual([...Object.keys(AUDIT_OPERATIONS), ...AUDIT_EXTENSIONS].sort());
    expect(auditAccessRule('audit_instance_get')).toEqual({ permission: 'read', instance: 'member' });
    expect(auditAccessRule('toString')).toBeUndefined();
  });

  it('reads: a reading role, and membership unless the role sees the whole organisation', () => {
    expect(matrix('audit_instance_get')).toEqual({
      ADMIN: 'YYY', AUTHORITY_MANAGER: 'YYY', STEWARD: '-YY', KNOWLEDGE_EXPERT: '-YY', ACTIVATION_MANAGER: '---', BILLING: '---', CONSUMER: '-YY',
    });
  });

  it('membership and ownership need a reading role too: a BILLING or ACTIVATION_MANAGER instance admin cannot change members or owners', () => {
    for (const op of ['audit_user_add', 'audit_user_remove', 'audit_user_set_admin', 'audit_user_set_normal', 'audit_documents_set_owner'] as const) {
      expect(matrix(op)).toEqual({
        ADMIN: 'YYY', AUTHORITY_MANAGER: '--Y', STEWARD: '--Y', KNOWLEDGE_EXPERT: '--Y', ACTIVATION_MANAGER: '---', BILLING: '---', CONSUMER: '--Y',
      });
    }
  });

  it('user-is-admin-for-instance: any role that belongs to the instance, BILLING and ACTIVATION_MANAGER included', () => {
    expect(matrix('audit_user_is_admin')).toEqual({
      ADMIN: 'YYY', AUTHORITY_MANAGER: 'YYY', STEWARD: '-YY', KNOWLEDGE_EXPERT: '-YY', ACTIVATION_MANAGER: '-YY', BILLING: '-YY', CONSUMER: '-YY',
    });
  });

  it('the audit link key follows the key-management roles: a CONSUMER instance admin cannot read it, an ACTIVATION_MANAGER instance admin can', () => {
    expect(matrix('audit_instance_get_svc_instances')).toEqual({
      ADMIN: 'YYY', AUTHORITY_MANAGER: '---', STEWARD: '---', KNOWLEDGE_EXPERT: '---', ACTIVATION_MANAGER: '--Y', BILLING: '---', CONSUMER: '---',
    });
  });

  it('update-instance-step: a governance role and instance admin, or global admin', () => {
    expect(matrix('audit_instance_update_step')).toEqual({
      ADMIN: 'YYY', AUTHORITY_MANAGER: '--Y', STEWARD: '--Y', KNOWLEDGE_EXPERT: '---', ACTIVATION_MANAGER: '---', BILLING: '---', CONSUMER: '---',
    });
  });

  it('refuses a non-member before an instance-admin requirement, except for the organisation-wide roles', () => {
    expect(standingRefusal('admin', ['STEWARD'], STANDINGS['non-member'])).toBe('WORKSPACE.NOT_A_MEMBER');
    expect(standingRefusal('admin', ['AUTHORITY_MANAGER'], STANDINGS['non-member'])).toBe('WORKSPACE.INSTANCE_ADMIN_ONLY');
    expect(standingRefusal('member', ['CONSUMER'], STANDINGS['non-member'])).toBe('WORKSPACE.NOT_A_MEMBER');
    expect(standingRefusal('none', ['CONSUMER'], STANDINGS['non-member'])).toBeNull();
  });

  it('asks an OAuth token for the read scope on reads and on user-is-admin, the write scope for the link key', () => {
    expect(requiredScope('audit_user_is_admin', AUDIT_ACCESS.audit_user_is_admin.permission)).toBe('audit:read');
    expect(requiredScope('audit_instance_get', AUDIT_ACCESS.audit_instance_get.permission)).toBe('audit:read');
    expect(requiredScope('audit_instance_get_svc_instances', AUDIT_ACCESS.audit_instance_get_svc_instances.permission)).toBe('audit:write');
    expect(requiredScope('audit_user_add', AUDIT_ACCESS.audit_user_add.permission)).toBe('audit:write');
  });
});
