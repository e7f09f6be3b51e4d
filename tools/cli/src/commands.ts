import { INestApplicationContext } from '@nestjs/common';
import { AppConfig } from '@svc/config';
import {
  ApiKeyRepository,
  apiKeyView,
  BootstrapInstallation,
  CreateApiKey,
  CreateMember,
  GetMember,
  IdentitySettings,
  ListApiKeys,
  ListMembers,
  OrganizationRepository,
  RevokeApiKey,
  UserRepository,
} from '@svc/identity-core';
import { ActivityLog, Clock, DomainError, IdGenerator, rolesAllow, UnitOfWork } from '@svc/kernel';
import { RequestFullAuditScan } from '@svc/full-audit-core';
import { JobStore } from '@svc/jobs';
import { CreateAuditInstance } from '@svc/workspace-core';
import type { CliCommand } from './args';
import { cliPrincipal, migrateDatabase, withContext } from './context';
import { CreateOrganization } from './create-organization';
import { CommandOutput, pageFooter, rawKeyBlock, table } from './output';

type Input<C extends CliCommand['command']> = Extract<CliCommand, { command: C }>;

/** Runs one parsed command against the configured database. DomainErrors propagate to the caller. */
export async function execute(input: CliCommand, config: AppConfig, verbose: boolean): Promise<CommandOutput> {
  if (input.command === 'migrate') return migrate(config);
  return withContext(config, verbose, async (app) => {
    switch (input.command) {
      case 'bootstrap':
        return bootstrap(app, config);
      case 'organization create':
        return createOrganization(app, input);
      case 'user create':
        return createUser(app, input);
      case 'user list':
        return listUsers(app, input);
      case 'key create':
        return createKey(app, input);
      case 'key list':
        return listKeys(app, input);
      case 'key revoke':
        return revokeKey(app, input);
      case 'instance create':
        return createInstance(app, input);
      case 'full-audit rescan':
        return rescanFullAudit(app, input);
      case 'jobs list':
        return listJobs(app, input);
      case 'jobs get':
        return getJob(app, input);
    }
  });
}

function describeDatabase(config: AppConfig): string {
  if (config.databaseMode === 'embedded') return `embedded (DATA_DIR ${config.dataDir})`;
  try {
    const url = new URL(config.DATABASE_URL as string);
    return `PostgreSQL at ${url.host}${url.pathname}`;
  } catch {
    return 'PostgreSQL';
  }
}

async function migrate(config: AppConfig): Promise<CommandOutput> {
  const { applied, total } = await migrateDatabase(config);
  const lines = [`Database: ${describeDatabase(config)}`];
  if (applied.length === 0) lines.push(`Schema up to date (${total} migrations, none pending).`);
  else lines.push(`Applied ${applied.length} migration${applied.length === 1 ? '' : 's'}:`, ...applied.map((m) => `  ${m}`), `Schema up to date (${total} migrations).`);
  return { json: { database_mode: config.databaseMode, applied, total }, text: lines.join('\n') };
}

async function bootstrap(app: INestApplicationContext, config: AppConfig): Promise<CommandOutput> {
  const result = await app.get(BootstrapInstallation).execute({
    organizationName: config.BOOTSTRAP_ORGANIZATION_NAME,
    adminEmail: config.BOOTSTRAP_ADMIN_EMAIL,
    adminApiKey: config.BOOTSTRAP_ADMIN_API_KEY,
  });
  const admin = result.installed ? await app.get(UserRepository).findByEmail(result.organizationId, config.BOOTSTRAP_ADMIN_EMAIL) : null;
  const json = {
    installed: result.installed,
    organization_id: result.organizationId,
    ...(admin ? { admin_user_id: admin.id } : {}),
    ...(result.generatedAdminKey ? { admin_api_key: result.generatedAdminKey } : {}),
  };
  if (!result.installed) {
    return { json, text: `Already installed: organisation ${result.organizationId}. Nothing to do.` };
  }
  const lines = [
    `Installation bootstrapped: organisation ${result.organizationId} (${config.BOOTSTRAP_ORGANIZATION_NAME}).`,
    ...(admin ? [`Admin: ${admin.id} <${admin.email}>`] : []),
    result.generatedAdminKey ? rawKeyBlock(result.generatedAdminKey) : 'Admin API key: the one set in BOOTSTRAP_ADMIN_API_KEY.',
  ];
  return { json, text: lines.join('\n') };
}

async function requireOrganization(app: INestApplicationContext, id: string): Promise<void> {
  if (!(await app.get(OrganizationRepository).get(id))) {
    throw DomainError.notFound('IDENTITY.ORGANIZATION_NOT_FOUND', `Organisation ${id} does not exist.`);
  }
}

async function createOrganization(app: INestApplicationContext, input: Input<'organization create'>): Promise<CommandOutput> {
  const useCase = new CreateOrganization(
    app.get(OrganizationRepository),
    app.get(CreateMember),
    app.get(CreateApiKey),
    app.get(IdGenerator),
    app.get(Clock),
    app.get(UnitOfWork),
    app.get(ActivityLog),
  );
  const result = await useCase.execute({ name: input.name, adminEmail: input.adminEmail, adminName: input.adminName }, (org) => cliPrincipal(org));
  const text = [
    `Created organisation ${result.organization.id} (${result.organization.name}).`,
    `Admin: ${result.admin_user.id} <${result.admin_user.email}>`,
    `Admin key: ${result.admin_key.id}`,
    rawKeyBlock(result.admin_key.api_key),
  ].join('\n');
  return { json: result, text };
}

async function createUser(app: INestApplicationContext, input: Input<'user create'>): Promise<CommandOutput> {
  await requireOrganization(app, input.org);
  const user = await app.get(CreateMember).execute(input.org, { email: input.email, name: input.name, roles: input.roles }, cliPrincipal(input.org));
  return { json: user, text: `Created user ${user.id} <${user.email}> (${user.name}), roles ${user.roles.join(', ')}.` };
}

async function listUsers(app: INestApplicationContext, input: Input<'user list'>): Promise<CommandOutput> {
  await requireOrganization(app, input.org);
  const page = await app.get(ListMembers).execute(cliPrincipal(input.org), input.page);
  const rows = page.items.map((u) => [u.id, u.email ?? '-', u.name, u.roles.join(','), u.kind, u.created_at]);
  return { json: page, text: `${table(['ID', 'EMAIL', 'NAME', 'ROLES', 'KIND', 'CREATED'], rows)}\n${pageFooter(page)}` };
}

async function createKey(app: INestApplicationContext, input: Input<'key create'>): Promise<CommandOutput> {
  await requireOrganization(app, input.org);
  const key = await app
    .get(CreateApiKey)
    .execute(input.org, { name: input.name, roles: input.roles, userId: input.userId, expiresAt: input.expiresAt ?? null }, cliPrincipal(input.org));
  const text = [
    `Created API key ${key.id} (${key.name}), roles ${key.roles.join(', ')}, acting as user ${key.user_id}${input.userId ? '' : ' (new service account)'}.`,
    `Expires: ${key.expires_at ?? 'never'}`,
    rawKeyBlock(key.api_key),
  ].join('\n');
  return { json: key, text };
}

function keyStatus(key: { revoked_at: string | null; expires_at: string | null }, now: Date): string {
  if (key.revoked_at) return 'revoked';
  if (key.expires_at && new Date(key.expires_at) <= now) return 'expired';
  return 'active';
}

async function listKeys(app: INestApplicationContext, input: Input<'key list'>): Promise<CommandOutput> {
  await requireOrganization(app, input.org);
  const page = await app.get(ListApiKeys).execute(cliPrincipal(input.org), input.page);
  const now = app.get(Clock).now();
  const rows = page.items.map((k) => [k.id, k.name, k.user_id, k.roles.join(','), keyStatus(k, now), k.expires_at ?? 'never', k.last_used_at ?? 'never', k.created_at]);
  return { json: page, text: `${table(['ID', 'NAME', 'USER', 'ROLES', 'STATUS', 'EXPIRES', 'LAST USED', 'CREATED'], rows)}\n${pageFooter(page)}` };
}

async function revokeKey(app: INestApplicationContext, input: Input<'key revoke'>): Promise<CommandOutput> {
  await requireOrganization(app, input.org);
  await app.get(RevokeApiKey).execute(cliPrincipal(input.org), input.keyId);
  const key = await app.get(ApiKeyRepository).get(input.org, input.keyId);
  const view = key ? apiKeyView(key) : null;
  const cacheSeconds = app.get(IdentitySettings).apiKeyCacheSeconds;
  return {
    json: { revoked: true, key: view },
    text: `Revoked API key ${input.keyId}${view?.revoked_at ? ` (revoked at ${view.revoked_at})` : ''}. Running services stop accepting it within ${cacheSeconds} s.`,
  };
}

async function createInstance(app: INestApplicationContext, input: Input<'instance create'>): Promise<CommandOutput> {
  await requireOrganization(app, input.org);
  const user = await app.get(GetMember).execute(input.org, input.as);
  if (!user) throw DomainError.notFound('IDENTITY.USER_NOT_FOUND', `User ${input.as} does not exist in organisation ${input.org}.`);
  if (!rolesAllow(user.roles, 'createInstances')) {
    throw DomainError.forbidden('AUTH.ROLE_NOT_ALLOWED', `User ${user.id} (roles ${user.roles.join(', ') || 'none'}) may not create instances; it needs ADMIN or AUTHORITY_MANAGER.`);
  }
  const instance = await app.get(CreateAuditInstance).execute(cliPrincipal(input.org, user), { name: input.name });
  return {
    json: instance,
    text: `Created audit instance ${instance.instance_id} (${instance.name}), step ${instance.step}; ${user.id} is its admin.`,
  };
}

async function rescanFullAudit(app: INestApplicationContext, input: Input<'full-audit rescan'>): Promise<CommandOutput> {
  await requireOrganization(app, input.org);
  const { jobId } = await app.get(RequestFullAuditScan).execute({ organizationId: input.org, instanceId: input.instanceId });
  return {
    json: { instance_id: input.instanceId, job_id: jobId },
    text: `Full-audit rescan of ${input.instanceId} queued as job ${jobId}; the service's workers run it (follow it with \`jobs get --job ${jobId}\`).`,
  };
}

async function listJobs(app: INestApplicationContext, input: Input<'jobs list'>): Promise<CommandOutput> {
  const jobs = await app.get(JobStore).list({ name: input.queue, state: input.state, limit: input.limit });
  const rows = jobs.map((j) => [j.id, j.name, j.state, `${j.progress}%`, `${j.attempts}/${j.maxAttempts}`, j.progressMessage ?? '', j.createdAt.toISOString()]);
  return { json: jobs, text: table(['ID', 'NAME', 'STATE', 'PROGRESS', 'ATTEMPTS', 'MESSAGE', 'CREATED'], rows) };
}

async function getJob(app: INestApplicationContext, input: Input<'jobs get'>): Promise<CommandOutput> {
  const job = await app.get(JobStore).get(input.jobId);
  if (!job) throw DomainError.notFound('JOBS.NOT_FOUND', `Job ${input.jobId} does not exist.`);
  const text = [
    `${job.id}  ${job.name}  ${job.state}`,
    `Progress: ${job.progress}%${job.progressMessage ? ` (${job.progressMessage})` : ''}`,
    `Attempts: ${job.attempts}/${job.maxAttempts}`,
    `Created: ${job.createdAt.toISOString()}${job.completedAt ? `  Completed: ${job.completedAt.toISOString()}` : ''}`,
    ...(job.lastError ? [`Last error: ${job.lastError}`] : []),
  ].join('\n');
  return { json: job, text };
}
