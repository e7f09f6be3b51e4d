import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { adapterSettingSchema, isAdapterVariable } from './adapter-settings';
import { ConfigError } from './config-error';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const port = z.coerce.number().int().min(1).max(65535);
const url = z.string().url();

/** Every setting the service reads, validated once at boot. Nothing else reads `process.env`. */
export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PLATFORM_AUTH_PORT: port.default(3000),
  AUDIT_PORT: port.default(3001),
  RETRIEVAL_PORT: port.default(3002),
  WORKERS_HEALTH_PORT: port.default(3003),
  /**
   * The URLs clients reach the apps at (token issuer, OAuth and protected-resource metadata, challenges,
   * allowed origins). Unset: `http://localhost:<the app's port>`, so moving a port moves its URL.
   */
  PUBLIC_AUTH_URL: url.optional(),
  PUBLIC_AUDIT_URL: url.optional(),
  PUBLIC_RETRIEVAL_URL: url.optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  // At least 2: migrations run on one connection while another holds the advisory lock.
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2, 'must be at least 2').max(200).default(10),
  DATA_DIR: z.string().min(1).default('./.data'),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional(),
  AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  BOOTSTRAP_ADMIN_API_KEY: z.string().startsWith('svc_org_', 'must be an organisation key starting with svc_org_').optional(),
  /** Optional password of the bootstrap admin (login page); at least 12 characters. */
  BOOTSTRAP_ADMIN_PASSWORD: z.string().min(12, 'must be at least 12 characters').max(256).optional(),
  BOOTSTRAP_ORGANIZATION_NAME: z.string().min(1).max(200).default('My organisation'),
  BOOTSTRAP_ADMIN_EMAIL: z.string().email().default('admin@example.com'),
  /** `local` (feature hashing, no network) or an OpenAI-compatible /embeddings endpoint (vLLM, Ollama, ...). */
  EMBEDDINGS_PROVIDER: adapterSettingSchema('EMBEDDINGS_PROVIDER'),
  EMBEDDINGS_BASE_URL: url.optional(),
  EMBEDDINGS_API_KEY: z.string().min(1).optional(),
  EMBEDDINGS_MODEL: z.string().min(1).max(200).optional(),
  EMBEDDINGS_DIMENSIONS: z.coerce.number().int().min(8).max(16000).optional(),
  EMBEDDINGS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600000).default(30000),
  EMBEDDINGS_BATCH_SIZE: z.coerce.number().int().min(1).max(2048).default(64),
  EMBEDDINGS_SEND_DIMENSIONS: bool.default(false),
  /**
   * pgvector HNSW graph: links per node and build candidate list (pgvector's defaults 16 and 64).
   * Higher builds a better graph (recall) slower; they apply to indexes created afterwards
   * (REINDEX an existing one). Measured trade-offs in tools/bench/README.md.
   */
  VECTOR_HNSW_M: z.coerce.number().int().min(2).max(100).default(16),
  VECTOR_HNSW_EF_CONSTRUCTION: z.coerce.number().int().min(4).max(1000).default(64),
  /** pgvector HNSW candidate list per search (raised to the limit when smaller): recall against latency. */
  VECTOR_HNSW_EF_SEARCH: z.coerce.number().int().min(1).max(1000).default(400),
  /**
   * The VectorIndex adapter: `auto` (pgvector's HNSW when the vectors' column is pgvector's `vector`, else an exact
   * scan of `real[]`: the column the migration could create decides), `pgvector` (refuses to start without it) or
   * `exact-scan` (exact cosine in SQL, on either column).
   */
  VECTOR_STORE: adapterSettingSchema('VECTOR_STORE'),
  /**
   * `none` (no model: rule-based answers, no network), `anthropic` (Messages API) or
   * `openai-compatible` (chat completions: vLLM, Ollama, llama.cpp server, OpenAI). `local` is the
   * former name of `none`.
   */
  LLM_PROVIDER: adapterSettingSchema('LLM_PROVIDER'),
  ANTHROPIC_API_KEY: z.string().min(1).optional(),
  ANTHROPIC_BASE_URL: url.default('https://api.anthropic.com'),
  ANTHROPIC_MODEL: z.string().min(1).max(200).default('claude-sonnet-4-6'),
  OPENAI_COMPATIBLE_BASE_URL: url.optional(),
  OPENAI_COMPATIBLE_API_KEY: z.string().min(1).optional(),
  OPENAI_COMPATIBLE_MODEL: z.string().min(1).max(200).optional(),
  LLM_TIMEOUT_MS: z.coerce.number().int().min(100).max(600000).default(10000),
  LLM_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(3),
  /** Confidence (0-1) from which a search counts as answered (got_answer). */
  SEARCH_ANSWER_THRESHOLD: z.coerce.number().min(0).max(1).default(0.5),
  /** Raw bytes of live documents allowed per repository instance (default 2 GiB). */
  INGESTION_MAX_INSTANCE_BYTES: z.coerce.number().int().min(1).default(2 * 1024 * 1024 * 1024),
  /**
   * Memory one document parse may hold in all (its own process: heap, ArrayBuffers, code), in MiB;
   * past it the parse is killed and the document ends in PARSING_ERROR. JOBS_CONCURRENCY parses run at once.
   */
  PARSER_MAX_MEMORY_MB: z.coerce.number().int().min(128).max(65536).default(512),
  /** Hours between scheduled full-audit rescans of an instance (0: only on changes and on entering RUNNING_PHASE). */
  FULL_AUDIT_RESCAN_HOURS: z.coerce.number().min(0).max(24 * 365).default(24),
  /** How often the workers look for due rescans and for changes whose judgement was not queued. */
  FULL_AUDIT_SWEEP_SECONDS: z.coerce.number().int().min(1).max(86400).default(60),
  /**
   * Seconds after the change that calls for a settle (changes worth 1% of the repository) before the whole
   * repository is judged again from its stored claims (the findings then no longer depend on the order the
   * documents arrived in); a burst is settled at most once per this delay; 0: never.
   */
  FULL_AUDIT_SETTLE_SECONDS: z.coerce.number().int().min(0).max(86400).default(60),
  /**
   * New candidates of a full full-audit judgement from which a model with batches (Anthropic's Message
   * Batches) judges them in one batch, answered later at about half the price, instead of call by call; 0: never.
   */
  FULL_AUDIT_MODEL_BATCH_MIN: z.coerce.number().int().min(0).max(100000).default(50),
  /** Seconds between two polls of a batch submitted to the model (the sweep polls, so at most every FULL_AUDIT_SWEEP_SECONDS). */
  FULL_AUDIT_MODEL_BATCH_POLL_SECONDS: z.coerce.number().int().min(1).max(86400).default(60),
  /**
   * Model-led discovery of the full audit (issue 24 item 3, ADR 0048), with LLM_PROVIDER set: the model reads each
   * passage's statements, pairs them across documents and judges the pairs, so it may raise what no rule finds.
   * `on` (the default with a model) or `off` (the model only confirms the rule-based candidates). No effect without a model.
   */
  FULL_AUDIT_MODEL_DISCOVERY: z.enum(['on', 'off']).default('on'),
  /**
   * Model calls one full-audit scan may make for discovery (statement extraction and judging pairs). Once spent, the
   * scan completes with what it has and have-to-show says it stopped on the budget; the next scan resumes where it
   * stopped (what was read or judged is cached, so it costs nothing again). Outside scans (a changed document
   * rescanned on its own), the same number bounds each instance's calls per UTC day.
   */
  FULL_AUDIT_MODEL_BUDGET_CALLS: z.coerce.number().int().min(1).max(10_000_000).default(2000),
  /**
   * Vector-neighbour blocking of the full audit (ANALYSIS.md §4.2, ADR 0042): `<min>-<max>`, the cosine band
   * within which two statements' passages are neighbours, compared even when the words they share are too
   * common to compare them by; nearer than max is near-identical text (left to the duplicates); `off`: words
   * only; `auto`: 0.6-0.98 with a neural embedder (EMBEDDINGS_PROVIDER=openai-compatible), off with the local one.
   */
  FULL_AUDIT_VECTOR_BAND: z
    .string()
    .regex(/^(off|auto|-?[01](\.\d+)?-[01](\.\d+)?)$/u, 'must be auto, off or <min>-<max>, cosines such as 0.6-0.98')
    .refine((v) => {
      if (!/\d-/u.test(v)) return true;
      const [min, max] = [Number(v.slice(0, v.lastIndexOf('-'))), Number(v.slice(v.lastIndexOf('-') + 1))];
      return min < max && min >= -1 && max <= 1;
    }, 'min must be below max, both cosines between -1 and 1')
    .default('auto'),
  /**
   * Languages whose value models (numbers, amounts, dates...) the retrieval and workers processes load before
   * they take requests, comma-separated (`en`, `fr`): a model is built on its language's first read, blocking
   * its process for about 0.6 s (English) or 13 s (French). Empty: built on first use.
   */
  TEXT_PRELOAD_LANGUAGES: z
    .string()
    .regex(/^((en|fr)(,(en|fr))*)?$/u, 'must be a comma-separated list of en and fr, or empty')
    .default('')
    .transform((v) => [...new Set(v.split(',').filter(Boolean))] as ('en' | 'fr')[]),
  /** Documents per full-scan job (worker replicas share a scan job by job). */
  FULL_AUDIT_CHUNK_DOCUMENTS: z.coerce.number().int().min(1).max(1000).default(25),
  /** Word-shingle Jaccard similarity at or above which two documents are near-duplicates (exact copies are always clustered). */
  DUPLICATES_JACCARD_THRESHOLD: z.coerce.number().min(0.5).max(0.99).default(0.7),
  /** Cosine distance within which an unanswered question joins the nearest missing subject (else it starts one). */
  MISSING_SUBJECTS_THRESHOLD: z.coerce.number().min(0.05).max(0.99).default(0.85),
  /** An unanswered search becomes a missing-subject question when this many distinct users asked it (within 90 days)... */
  MISSING_SUBJECTS_SEARCH_MIN_USERS: z.coerce.number().int().min(1).max(1000).default(2),
  /** ...or when it was asked this many times (a user's retries within 10 minutes counting once). */
  MISSING_SUBJECTS_SEARCH_MIN_REPEATS: z.coerce.number().int().min(1).max(1000).default(3),
  /** Documents read and fingerprinted per step of the whole-repository identification (its progress and resumption unit). */
  DUPLICATES_PAGE_DOCUMENTS: z.coerce.number().int().min(1).max(1000).default(200),
  /** How the audit side reads repository instances: in-process (`local`) or over their instance API (`http`). */
  REPOSITORY_CLIENT: adapterSettingSchema('REPOSITORY_CLIENT'),
  /** Base URL of the instance API for REPOSITORY_CLIENT=http (default PUBLIC_RETRIEVAL_URL). */
  REPOSITORY_API_URL: url.optional(),
  /** Standalone only: create a demo audit instance on the first start. */
  DEMO_DATA: bool.default(true),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_PRETTY: bool.default(false),
  JSON_BODY_LIMIT: z.string().regex(/^\d+(b|kb|mb)$/, 'must look like 1mb or 512kb').default('1mb'),
  API_KEY_CACHE_SECONDS: z.coerce.number().int().min(0).max(60).default(30),
  JOBS_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  JOBS_POLL_INTERVAL_MS: z.coerce.number().int().min(20).max(60000).default(500),
  JOBS_LEASE_SECONDS: z.coerce.number().int().min(5).max(3600).default(60),
  JOBS_ENABLED: bool.default(true),
  /** Redis key prefix of the BullMQ queues; every app of one deployment must use the same. */
  JOBS_QUEUE_PREFIX: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, - and _ only').default('jobs'),
  TRUST_PROXY: z.string().default('false'),
  /**
   * Browser origins allowed to call the APIs (comma-separated). Default: the origins of the three
   * PUBLIC_*_URL settings. Any other `Origin` header gets 403.
   */
  ALLOWED_ORIGINS: z
    .string()
    .regex(/^\s*https?:\/\/[^,\s]+(\s*,\s*https?:\/\/[^,\s]+)*\s*$/, 'must be a comma-separated list of http(s) origins')
    .optional(),
  /** `Domain` attribute of the svc_auth cookie: the shared parent domain (unset = host-only cookie). */
  COOKIE_DOMAIN: z.string().regex(/^\.?[A-Za-z0-9.-]+$/, 'must be a domain name').optional(),
  /** Absolute lifetime of a browser session, whatever the refreshes (hours). */
  SESSION_MAX_HOURS: z.coerce.number().min(0.01).max(720).default(12),
  OAUTH_ACCESS_TOKEN_SECONDS: z.coerce.number().int().min(60).max(86400).default(3600),
  OAUTH_REFRESH_TOKEN_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /** Rate limits (429 + Retry-After). Per key id; per IP the limit is 10 times higher. */
  RATE_LIMIT_KEY_EXCHANGE_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  /** Login attempts per minute per IP; an account locks for 15 minutes after LOGIN_MAX_FAILURES failures. */
  RATE_LIMIT_LOGIN_PER_MINUTE: z.coerce.number().int().min(1).default(20),
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).max(100).default(5),
  RATE_LIMIT_REGISTRATION_PER_HOUR: z.coerce.number().int().min(1).default(20),
  /** Token endpoint (code exchange and refresh) and cookie refresh, per client or session and per IP. */
  RATE_LIMIT_TOKEN_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(120000).default(10000),
});

export type RawConfig = z.infer<typeof configSchema>;

/** The public URLs of the apps, each set or derived from its app's port. */
type PublicUrlName = 'PUBLIC_AUTH_URL' | 'PUBLIC_AUDIT_URL' | 'PUBLIC_RETRIEVAL_URL';

/**
 * The validated configuration. At run time it also holds, as text, the variables of adapters the schema does not
 * type (named under a port's prefix, `ADAPTER_SETTINGS`), which their adapter's settings reader checks at start.
 */
export interface AppConfig extends Omit<RawConfig, PublicUrlName>, Record<PublicUrlName, string> {
  /** `embedded` when DATABASE_URL is unset: PGlite under DATA_DIR. */
  databaseMode: 'postgres' | 'embedded';
  /** `bullmq` when REDIS_URL is set, otherwise durable jobs in the database. */
  jobsMode: 'bullmq' | 'database';
  dataDir: string;
  authSecret: string;
  /** Browser origins allowed on the APIs (ALLOWED_ORIGINS or the PUBLIC_*_URL origins). */
  allowedOrigins: string[];
}

export { ConfigError } from './config-error';

/**
 * Validates the environment. A bad value throws a ConfigError naming each variable; embedded mode
 * creates DATA_DIR and, when AUTH_SECRET is unset, a persistent random secret inside it.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const input = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = configSchema.safeParse(input);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const raw = parsed.data;
  const databaseMode = raw.DATABASE_URL ? 'postgres' : 'embedded';
  if (databaseMode === 'postgres' && !raw.AUTH_SECRET) {
    throw new ConfigError(['AUTH_SECRET: required when DATABASE_URL is set (every app of a deployment must share it)']);
  }
  if (raw.LLM_PROVIDER === 'anthropic' && raw.ANTHROPIC_API_KEY === undefined) {
    throw new ConfigError(['ANTHROPIC_API_KEY: required when LLM_PROVIDER=anthropic']);
  }
  if (raw.LLM_PROVIDER === 'openai-compatible') {
    const missing = (['OPENAI_COMPATIBLE_BASE_URL', 'OPENAI_COMPATIBLE_MODEL'] as const).filter((name) => raw[name] === undefined);
    if (missing.length > 0) throw new ConfigError(missing.map((name) => `${name}: required when LLM_PROVIDER=openai-compatible`));
  }
  if (raw.VECTOR_HNSW_EF_CONSTRUCTION < 2 * raw.VECTOR_HNSW_M) {
    throw new ConfigError([`VECTOR_HNSW_EF_CONSTRUCTION: must be at least twice VECTOR_HNSW_M (${2 * raw.VECTOR_HNSW_M}), as pgvector requires`]);
  }
  if (raw.EMBEDDINGS_PROVIDER === 'openai-compatible') {
    const missing = (['EMBEDDINGS_BASE_URL', 'EMBEDDINGS_MODEL', 'EMBEDDINGS_DIMENSIONS'] as const).filter((name) => raw[name] === undefined);
    if (missing.length > 0) throw new ConfigError(missing.map((name) => `${name}: required when EMBEDDINGS_PROVIDER=openai-compatible`));
  }
  const dataDir = resolve(raw.DATA_DIR);
  const authSecret = raw.AUTH_SECRET ?? embeddedSecret(dataDir);
  const publicUrls: Record<PublicUrlName, string> = {
    PUBLIC_AUTH_URL: raw.PUBLIC_AUTH_URL ?? `http://localhost:${raw.PLATFORM_AUTH_PORT}`,
    PUBLIC_AUDIT_URL: raw.PUBLIC_AUDIT_URL ?? `http://localhost:${raw.AUDIT_PORT}`,
    PUBLIC_RETRIEVAL_URL: raw.PUBLIC_RETRIEVAL_URL ?? `http://localhost:${raw.RETRIEVAL_PORT}`,
  };
  const allowedOrigins = raw.ALLOWED_ORIGINS
    ? raw.ALLOWED_ORIGINS.split(',').map((o) => new URL(o.trim()).origin)
    : [...new Set(Object.values(publicUrls).map((u) => new URL(u).origin))];
  return { ...adapterVariables(input), ...raw, ...publicUrls, databaseMode, jobsMode: raw.REDIS_URL ? 'bullmq' : 'database', dataDir, authSecret, allowedOrigins };
}

/** The variables of adapters the schema does not type, as text: their adapter's settings reader checks them at start. */
function adapterVariables(input: Record<string, string | undefined>): Record<string, string> {
  const typed = new Set(Object.keys(configSchema.shape));
  return Object.fromEntries(Object.entries(input).filter((entry): entry is [string, string] => !typed.has(entry[0]) && isAdapterVariable(entry[0]) && typeof entry[1] === 'string'));
}

function embeddedSecret(dataDir: string): string {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'auth-secret');
  if (!existsSync(file)) {
    writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' });
  }
  return readFileSync(file, 'utf8').trim();
}
