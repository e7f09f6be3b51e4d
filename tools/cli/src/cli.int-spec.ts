import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INestApplicationContext } from '@nestjs/common';
import { loadConfig } from '@svc/config';
import { AuthenticateApiKey, generateApiKey } from '@svc/identity-core';
import { isId } from '@svc/kernel';
import { createTestDatabase, Json, TEST_REDIS_URL, TestDatabase, TestDatabaseMode } from '@svc/test-kit';
import { AuditInstanceRepository, ListInstancesForUser, MembershipRepository } from '@svc/workspace-core';
import Redis from 'ioredis';
import { runCli } from './cli';
import { cliPrincipal, withContext } from './context';

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed when it is JSON. */
  json: Json;
}

async function cli(env: Record<string, string>, ...argv: string[]): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), env });
  let json: Json;
  try {
    json = JSON.parse(stdout);
  } catch {
    json = undefined;
  }
  return { code, stdout, stderr, json };
}

/** Like `cli`, but fails the test with the CLI's own output when the exit code is not 0. */
async function ok(env: Record<string, string>, ...argv: string[]): Promise<CliRun> {
  const run = await cli(env, ...argv);
  if (run.code !== 0) throw new Error(`cli ${argv.join(' ')} exited with ${run.code}:\n${run.stderr}${run.stdout}`);
  return run;
}

/** The service's own use cases on the same database, between two CLI runs (never during one). */
async function inService<T>(env: Record<string, string>, work: (app: INestApplicationContext) => Promise<T>): Promise<T> {
  return withContext(loadConfig(env), false, work);
}

const authenticate = (env: Record<string, string>, rawKey: string) => inService(env, (app) => app.get(AuthenticateApiKey).execute(rawKey));

describe.each<TestDatabaseMode>(['postgres', 'embedded'])('admin CLI (%s database)', (mode) => {
  let db: TestDatabase;
  let env: Record<string, string>;
  let org: { id: string; adminId: string; adminKey: string };

  beforeAll(async () => {
    db = await createTestDatabase(mode);
    env = { ...db.env, API_KEY_CACHE_SECONDS: '0' };
  });

  afterAll(async () => {
    await db?.drop();
  });

  it('migrate applies every pending migration once and names them', async () => {
    const first = await ok(env, 'migrate', '--json');
    expect(first.json.applied).toEqual(expect.arrayContaining(['CreateIdentitySchema1763700000100', 'CreateWorkspaceSchema1763700000300']));
    expect(first.json.applied).toHaveLength(first.json.total);
    const second = await ok(env, 'migrate');
    expect(second.stdout).toContain(`Schema up to date (${first.json.total} migrations, none pending)`);
  });

  it('refuses a further organisation before the installation is bootstrapped', async () => {
    const run = await cli(env, 'organization', 'create', '--name', 'Early', '--admin-email', 'early@example.com');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('IDENTITY.NOT_INSTALLED');
  });

  it('bootstrap installs once, prints the generated admin key, and is a no-op afterwards', async () => {
    const first = await ok(env, 'bootstrap', '--json');
    expect(first.json).toMatchObject({ installed: true });
    expect(isId('org_', first.json.organization_id)).toBe(true);
    const { principal } = await authenticate(env, first.json.admin_api_key);
    expect(principal).toMatchObject({ organizationId: first.json.organization_id, userId: first.json.admin_user_id, roles: ['ADMIN'] });

    const again = await ok(env, 'bootstrap');
    expect(again.stdout).toContain(`Already installed: organisation ${first.json.organization_id}`);
    expect(again.stdout).not.toContain('svc_org_');
  });

  it('organization create makes an organisation, its admin and an admin key that authenticates', async () => {
    const run = await ok(env, 'organization', 'create', '--name', 'Acme', '--admin-email', 'Ops@Acme.test', '--admin-name', 'Olga Ops', '--json');
    const { organization, admin_user, admin_key } = run.json;
    expect(organization).toMatchObject({ name: 'Acme' });
    expect(admin_user).toMatchObject({ organization_id: organization.id, email: 'ops@acme.test', name: 'Olga Ops', roles: ['ADMIN'], kind: 'person' });
    expect(admin_key).toMatchObject({ user_id: admin_user.id, roles: ['ADMIN'], revoked_at: null });
    org = { id: organization.id, adminId: admin_user.id, adminKey: admin_key.api_key };

    const { principal } = await authenticate(env, org.adminKey);
    expect(principal).toMatchObject({ organizationId: org.id, userId: org.adminId, roles: ['ADMIN'] });
  });

  it('user create adds people with roles; user list shows them; a taken email is a domain error', async () => {
    const created = await ok(env, 'user', 'create', '--org', org.id, '--email', 'sam@acme.test', '--name', 'Sam Steward', '--roles', 'steward,KNOWLEDGE_EXPERT', '--json');
    expect(created.json).toMatchObject({ organization_id: org.id, email: 'sam@acme.test', roles: ['STEWARD', 'KNOWLEDGE_EXPERT'], kind: 'person' });

    const listed = await ok(env, 'user', 'list', '--org', org.id, '--json');
    expect(listed.json).toMatchObject({ total: 2, offset: 0, limit: 50 });
    expect(listed.json.items.map((u: Json) => u.id)).toEqual(expect.arrayContaining([created.json.id, org.adminId]));

    const text = await ok(env, 'user', 'list', '--org', org.id, '--limit', '1');
    expect(text.stdout).toMatch(/ID\s+EMAIL\s+NAME\s+ROLES/);
    expect(text.stdout).toContain('1 of 2 (offset 0); use --offset and --limit for more');

    const taken = await cli(env, 'user', 'create', '--org', org.id, '--email', 'SAM@acme.test', '--name', 'Again', '--roles', 'CONSUMER');
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('IDENTITY.EMAIL_TAKEN');
  });

  it('answers not found for an organisation that does not exist', async () => {
    const run = await cli(env, 'user', 'list', '--org', 'org_01ARZ3NDEKTSV4RRFFQ69G5FAV', '--json');
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stderr).error).toMatchObject({ kind: 'not_found', code: 'IDENTITY.ORGANIZATION_NOT_FOUND' });
  });

  it('key create prints the raw key once; the key authenticates; key list never shows secrets; key revoke stops it', async () => {
    const steward = (await ok(env, 'user', 'list', '--org', org.id, '--json')).json.items.find((u: Json) => u.email === 'sam@acme.test');

    const text = await ok(env, 'key', 'create', '--org', org.id, '--name', 'sam laptop', '--roles', 'STEWARD', '--user', steward.id, '--expires-at', '2099-01-01T00:00:00Z');
    const raw = text.stdout.match(/svc_org_[0-9A-Za-z]+/g) ?? [];
    expect(raw).toHaveLength(1);
    expect(text.stdout).toContain('shown once');
    const rawKey = String(raw[0]);
    const { principal, key } = await authenticate(env, rawKey);
    expect(principal).toMatchObject({ organizationId: org.id, userId: steward.id, roles: ['STEWARD'] });
    expect(key.expiresAt?.toISOString()).toBe('2099-01-01T00:00:00.000Z');

    const service = await ok(env, 'key', 'create', '--org', org.id, '--name', 'ci', '--roles', 'CONSUMER', '--json');
    expect(service.json).toMatchObject({ name: 'ci', roles: ['CONSUMER'], expires_at: null });
    expect(service.json.user_id).not.toBe(steward.id);
    expect((await authenticate(env, service.json.api_key)).principal.userId).toBe(service.json.user_id);

    const listed = await ok(env, 'key', 'list', '--org', org.id, '--json');
    expect(listed.json.total).toBe(3);
    // No key material: neither raw key, nor any part of it (lookup id, secret), nor a field that
    // could hold a hash. (Field names are checked, not the whole text: a ULID can spell "HASH".)
    expect(listed.stdout).not.toContain('svc_org_');
    for (const issued of [rawKey, String(service.json.api_key)]) {
      const body = issued.slice('svc_org_'.length);
      expect(listed.stdout).not.toContain(body.slice(0, 16));
      expect(listed.stdout).not.toContain(body.slice(16, 48));
    }
    const fields = listed.json.items.flatMap((item: Json) => Object.keys(item));
    expect(fields.filter((name: string) => /secret|hash|lookup/i.test(name))).toEqual([]);
    const table = await ok(env, 'key', 'list', '--org', org.id);
    expect(table.stdout).not.toContain('svc_org_');
    expect(table.stdout).toMatch(/sam laptop\s+usr_\w+\s+STEWARD\s+active\s+2099-01-01T00:00:00.000Z/);

    const keyId = listed.json.items.find((k: Json) => k.name === 'sam laptop').id;
    const revoked = await ok(env, 'key', 'revoke', '--org', org.id, '--key', keyId, '--json');
    expect(revoked.json).toMatchObject({ revoked: true, key: { id: keyId } });
    expect(revoked.json.key.revoked_at).not.toBeNull();
    await expect(authenticate(env, rawKey)).rejects.toMatchObject({ kind: 'unauthenticated', code: 'AUTH.INVALID_API_KEY' });
    // Idempotent, and the other keys keep working.
    expect((await cli(env, 'key', 'revoke', '--org', org.id, '--key', keyId)).code).toBe(0);
    expect((await authenticate(env, service.json.api_key)).principal.userId).toBe(service.json.user_id);
    expect((await ok(env, 'key', 'list', '--org', org.id)).stdout).toMatch(/sam laptop\s+usr_\w+\s+STEWARD\s+revoked/);
  });

  it('key commands report domain errors with exit code 1', async () => {
    const past = await cli(env, 'key', 'create', '--org', org.id, '--name', 'old', '--roles', 'CONSUMER', '--expires-at', '2001-01-01T00:00:00Z');
    expect(past.code).toBe(1);
    expect(past.stderr).toContain('IDENTITY.EXPIRY_IN_PAST');
    const unknownUser = await cli(env, 'key', 'create', '--org', org.id, '--name', 'ghost', '--roles', 'CONSUMER', '--user', 'usr_01ARZ3NDEKTSV4RRFFQ69G5FAV');
    expect(unknownUser.code).toBe(1);
    expect(unknownUser.stderr).toContain('IDENTITY.USER_NOT_FOUND');
    const unknownKey = await cli(env, 'key', 'revoke', '--org', org.id, '--key', 'key_01ARZ3NDEKTSV4RRFFQ69G5FAV');
    expect(unknownKey.code).toBe(1);
    expect(unknownKey.stderr).toContain('IDENTITY.API_KEY_NOT_FOUND');
  });

  it('instance create makes the user its admin, with the roles of the user record', async () => {
    const run = await ok(env, 'instance', 'create', '--org', org.id, '--name', 'Handbook', '--as', org.adminId, '--json');
    expect(run.json).toMatchObject({ name: 'Handbook', step: 'INIT', organization_id: org.id });
    const instanceId = run.json.instance_id;
    expect(isId('ki_', instanceId)).toBe(true);

    const manager = await ok(env, 'user', 'create', '--org', org.id, '--email', 'ann@acme.test', '--name', 'Ann', '--roles', 'AUTHORITY_MANAGER', '--json');
    const second = await ok(env, 'instance', 'create', '--org', org.id, '--name', 'Policies', '--as', manager.json.id);
    expect(second.stdout).toContain(`${manager.json.id} is its admin`);

    await inService(env, async (app) => {
      const admin = cliPrincipal(org.id, { id: org.adminId, roles: ['ADMIN'] });
      const members = await app.get(MembershipRepository).list(instanceId, { offset: 0, limit: 10 });
      expect(members.items).toEqual([expect.objectContaining({ userId: org.adminId, isAdmin: true })]);
      const all = await app.get(ListInstancesForUser).execute(admin, { offset: 0, limit: 10 });
      expect(all.items.map((i) => i.name).sort()).toEqual(['Handbook', 'Policies']);
    });

    // The lifecycle job of each new instance is queued with it (outbox) and readable from the CLI.
    const jobs = await ok(env, 'jobs', 'list', '--queue', 'workspace.run-step', '--json');
    expect(jobs.json).toHaveLength(2);
    expect(jobs.json[0]).toMatchObject({ name: 'workspace.run-step', state: 'queued', progress: 0 });
    const one = await ok(env, 'jobs', 'get', '--job', jobs.json[0].id);
    expect(one.stdout).toContain('workspace.run-step  queued');
    expect((await cli(env, 'jobs', 'list', '--state', 'sleeping')).code).toBe(2);
  });

  it('instance create refuses a user whose roles may not create instances, and an unknown user', async () => {
    const steward = (await ok(env, 'user', 'list', '--org', org.id, '--json')).json.items.find((u: Json) => u.email === 'sam@acme.test');
    const refused = await cli(env, 'instance', 'create', '--org', org.id, '--name', 'Nope', '--as', steward.id, '--json');
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stderr).error).toMatchObject({ kind: 'forbidden', code: 'AUTH.ROLE_NOT_ALLOWED' });
    const unknown = await cli(env, 'instance', 'create', '--org', org.id, '--name', 'Nope', '--as', 'usr_01ARZ3NDEKTSV4RRFFQ69G5FAV');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('IDENTITY.USER_NOT_FOUND');
  });

  it('full-audit rescan queues a full scan of an instance in RUNNING_PHASE once, and refuses other steps and unknown instances', async () => {
    const instanceId = (await ok(env, 'instance', 'create', '--org', org.id, '--name', 'Rescanned', '--as', org.adminId, '--json')).json.instance_id;
    const early = await cli(env, 'full-audit', 'rescan', '--org', org.id, '--instance', instanceId, '--json');
    expect(early.code).toBe(1);
    expect(JSON.parse(early.stderr).error).toMatchObject({ kind: 'conflict', code: 'FULL_AUDIT.NOT_RUNNING' });
    expect(JSON.parse(early.stderr).error.message).toContain('RUNNING_PHASE');

    await inService(env, (app) => app.get(AuditInstanceRepository).setStep(instanceId, 'RUNNING_PHASE', new Date()));
    const queued = await ok(env, 'full-audit', 'rescan', '--org', org.id, '--instance', instanceId, '--json');
    expect(queued.json).toEqual({ instance_id: instanceId, job_id: expect.stringMatching(/^job_/) });
    const jobs = (await ok(env, 'jobs', 'list', '--queue', 'full-audit.scan', '--json')).json as Json[];
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ id: queued.json.job_id, state: 'queued' });
    // Asked again before the workers ran it: the same job, not a second scan.
    const again = await ok(env, 'full-audit', 'rescan', '--org', org.id, '--instance', instanceId);
    expect(again.stdout).toContain(`queued as job ${queued.json.job_id}`);
    expect((await ok(env, 'jobs', 'list', '--queue', 'full-audit.scan', '--json')).json).toHaveLength(1);

    const unknown = await cli(env, 'full-audit', 'rescan', '--org', org.id, '--instance', 'ki_01ARZ3NDEKTSV4RRFFQ69G5FAV');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('WORKSPACE.INSTANCE_NOT_FOUND');
    expect((await cli(env, 'full-audit', 'rescan', '--org', org.id, '--instance', 'kn_01ARZ3NDEKTSV4RRFFQ69G5FAV')).code).toBe(2);
  });

  it('keeps organisations apart', async () => {
    const other = await ok(env, 'organization', 'create', '--name', 'Other', '--admin-email', 'ops@acme.test', '--json');
    const keys = await ok(env, 'key', 'list', '--org', other.json.organization.id, '--json');
    expect(keys.json.items.map((k: Json) => k.id)).toEqual([other.json.admin_key.id]);
    const crossRevoke = await cli(env, 'key', 'revoke', '--org', other.json.organization.id, '--key', (await ok(env, 'key', 'list', '--org', org.id, '--json')).json.items[0].id);
    expect(crossRevoke.code).toBe(1);
    expect(crossRevoke.stderr).toContain('IDENTITY.API_KEY_NOT_FOUND');
  });

  if (mode === 'embedded') {
    it('says to stop the service when another process holds the embedded database', async () => {
      // A running service holds DATA_DIR through EmbeddedPostgres's lock file, which names its pid.
      const holder: ChildProcess = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
      try {
        writeFileSync(join(env.DATA_DIR, 'pglite.lock'), String(holder.pid));
        for (const argv of [['user', 'list', '--org', org.id], ['migrate']]) {
          const run = await cli(env, ...argv);
          expect(run.code).toBe(1);
          expect(run.stderr).toContain(`in use by process ${holder.pid}`);
          expect(run.stderr).toContain('Stop the service first, or point DATABASE_URL at PostgreSQL.');
        }
        const json = await cli(env, 'user', 'list', '--org', org.id, '--json');
        expect(JSON.parse(json.stderr).error).toMatchObject({ code: 'CLI.DATABASE_LOCKED' });
      } finally {
        await new Promise<void>((resolve) => {
          holder.once('exit', () => resolve());
          holder.kill();
        });
      }
      // The holder is gone: its stale lock no longer blocks.
      expect((await cli(env, 'user', 'list', '--org', org.id)).code).toBe(0);
    });
  }
});

describe('admin CLI with BullMQ jobs (PostgreSQL and Redis)', () => {
  let db: TestDatabase;
  let env: Record<string, string>;
  const prefix = `cli${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    env = { ...db.env, REDIS_URL: TEST_REDIS_URL, JOBS_QUEUE_PREFIX: prefix, BOOTSTRAP_ADMIN_API_KEY: generateApiKey() };
  });

  afterAll(async () => {
    const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
    try {
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length > 0) await redis.del(...keys);
    } finally {
      redis.disconnect();
    }
    await db?.drop();
  });

  it('bootstraps with the configured key without printing it, and hands the instance job to the queue', async () => {
    const boot = await ok(env, 'bootstrap', '--json');
    expect(boot.json).toMatchObject({ installed: true });
    expect(boot.json.admin_api_key).toBeUndefined();
    expect(boot.stdout).not.toContain(env.BOOTSTRAP_ADMIN_API_KEY);
    const { principal } = await authenticate(env, env.BOOTSTRAP_ADMIN_API_KEY);

    const run = await ok(env, 'instance', 'create', '--org', boot.json.organization_id, '--name', 'Queued', '--as', principal.userId, '--json');
    expect(run.json.step).toBe('INIT');
    const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
    try {
      // The CLI's outbox relay copied the job to BullMQ before the process closed.
      // One BullMQ queue per context (ADR 0026): the workspace's jobs go to `workspace`.
      expect(await redis.keys(`${prefix}:workspace:job_*`)).toHaveLength(1);
    } finally {
      redis.disconnect();
    }
  });
});

describe('admin CLI usage and configuration errors (no database)', () => {
  const env = { DATA_DIR: mkdtempSync(join(tmpdir(), 'docaudit-cli-')) };
  afterAll(() => rmSync(env.DATA_DIR, { recursive: true, force: true }));

  it('prints the usage and exits with 2 on bad usage', async () => {
    for (const argv of [[], ['frobnicate'], ['user'], ['user', 'create', '--org', 'org_x'], ['key', 'list', '--org', 'org_01ARZ3NDEKTSV4RRFFQ69G5FAV', '--colour', 'red']]) {
      const run = await cli(env, ...argv);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^error: .+\n\nUsage: npm run cli -- /);
      expect(run.stdout).toBe('');
    }
    const json = await cli(env, 'user', 'create', '--json', '--org', 'org_01ARZ3NDEKTSV4RRFFQ69G5FAV', '--email', 'a@b.test', '--name', 'A', '--roles', 'ORG_OWNER');
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stderr).error).toMatchObject({ kind: 'usage', code: 'CLI.USAGE', message: expect.stringContaining('unknown role ORG_OWNER') });
  });

  it('prints help with exit code 0', async () => {
    const help = await cli(env, 'help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('instance create --org ORG_ID --name NAME --as USER_ID');
    const command = await cli(env, 'key', 'create', '--help');
    expect(command.code).toBe(0);
    expect(command.stdout).toContain('Usage: npm run cli -- key create --org ORG_ID --name NAME --roles ROLE[,ROLE...] [--user USER_ID] [--expires-at ISO_DATE]');
  });

  it('exits with 78 and names the variable when the configuration is invalid', async () => {
    const run = await cli({ ...env, AUDIT_PORT: 'seventy' }, 'migrate');
    expect(run.code).toBe(78);
    expect(run.stderr).toContain('AUDIT_PORT');
  });

  it('reports an unreachable PostgreSQL without its password', async () => {
    const run = await cli({ DATABASE_URL: 'postgres://admin:hunter2hunter2@127.0.0.1:1/nowhere', AUTH_SECRET: 's'.repeat(40) }, 'user', 'list', '--org', 'org_01ARZ3NDEKTSV4RRFFQ69G5FAV');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Could not open the database');
    expect(run.stderr).not.toContain('hunter2');
    expect(run.stderr).not.toContain('s'.repeat(40));
  });
});
