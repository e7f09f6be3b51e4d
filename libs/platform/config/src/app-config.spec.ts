import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from './app-config';

const dir = () => mkdtempSync(join(tmpdir(), 'cfg-'));

describe('loadConfig', () => {
  it('defaults to the embedded mode with durable database jobs', () => {
    const config = loadConfig({ DATA_DIR: dir() });
    expect(config.databaseMode).toBe('embedded');
    expect(config.jobsMode).toBe('database');
    expect(config.AUDIT_PORT).toBe(3001);
  });

  it('persists a generated secret in the data directory so restarts keep sessions and keys valid', () => {
    const dataDir = dir();
    const first = loadConfig({ DATA_DIR: dataDir });
    const second = loadConfig({ DATA_DIR: dataDir });
    expect(first.authSecret).toHaveLength(64);
    expect(second.authSecret).toBe(first.authSecret);
    expect(readFileSync(join(dataDir, 'auth-secret'), 'utf8')).toBe(first.authSecret);
  });

  it('switches to postgres and BullMQ when their URLs are set', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://u@localhost/db',
      REDIS_URL: 'redis://localhost:6379',
      AUTH_SECRET: 'x'.repeat(32),
    });
    expect(config.databaseMode).toBe('postgres');
    expect(config.jobsMode).toBe('bullmq');
  });

  it('names every bad variable', () => {
    try {
      loadConfig({ AUDIT_PORT: 'seventy', REDIS_URL: 'http://nope', DATA_DIR: dir() });
      throw new Error('expected a ConfigError');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as Error).message;
      expect(message).toContain('AUDIT_PORT');
      expect(message).toContain('REDIS_URL');
    }
  });

  it('requires a shared AUTH_SECRET in the distributed mode', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u@localhost/db' })).toThrow(/AUTH_SECRET/);
  });

  it('refuses a bootstrap key that is not an organisation key', () => {
    expect(() => loadConfig({ DATA_DIR: dir(), BOOTSTRAP_ADMIN_API_KEY: 'abc' })).toThrow(/BOOTSTRAP_ADMIN_API_KEY/);
  });
});

describe('loadConfig (embeddings)', () => {
  it('types the VECTOR_HNSW_* settings and refuses an ef_construction below twice m', () => {
    expect(loadConfig({ DATA_DIR: dir() })).toMatchObject({ VECTOR_HNSW_M: 16, VECTOR_HNSW_EF_CONSTRUCTION: 64, VECTOR_HNSW_EF_SEARCH: 400 });
    expect(loadConfig({ DATA_DIR: dir(), VECTOR_HNSW_M: '24', VECTOR_HNSW_EF_CONSTRUCTION: '128' })).toMatchObject({ VECTOR_HNSW_M: 24, VECTOR_HNSW_EF_CONSTRUCTION: 128 });
    expect(() => loadConfig({ DATA_DIR: dir(), VECTOR_HNSW_M: '40' })).toThrow(/VECTOR_HNSW_EF_CONSTRUCTION: must be at least twice VECTOR_HNSW_M \(80\)/);
    expect(() => loadConfig({ DATA_DIR: dir(), VECTOR_HNSW_EF_SEARCH: 'wide' })).toThrow(/VECTOR_HNSW_EF_SEARCH/);
  });

  it('keeps the EMBEDDINGS_* settings, typed, and names a bad one', () => {
    const config = loadConfig({ DATA_DIR: dir(), EMBEDDINGS_PROVIDER: 'openai-compatible', EMBEDDINGS_BASE_URL: 'http://127.0.0.1:8000/v1', EMBEDDINGS_MODEL: 'bge-small', EMBEDDINGS_DIMENSIONS: '384' });
    expect(config).toMatchObject({ EMBEDDINGS_PROVIDER: 'openai-compatible', EMBEDDINGS_DIMENSIONS: 384, EMBEDDINGS_TIMEOUT_MS: 30000 });
    expect(() => loadConfig({ DATA_DIR: dir(), EMBEDDINGS_PROVIDER: 'magic' })).toThrow(/EMBEDDINGS_PROVIDER/);
    expect(() => loadConfig({ DATA_DIR: dir(), EMBEDDINGS_PROVIDER: 'openai-compatible', EMBEDDINGS_BASE_URL: 'http://127.0.0.1:8000/v1' })).toThrow(/EMBEDDINGS_MODEL.*\n.*EMBEDDINGS_DIMENSIONS/s);
  });

  it('reads FULL_AUDIT_VECTOR_BAND as auto, off or a band of cosines, and names a bad one', () => {
    expect(loadConfig({ DATA_DIR: dir() }).FULL_AUDIT_VECTOR_BAND).toBe('auto');
    for (const band of ['off', '0.6-0.98', '0-1', '-0.5-0.9']) expect(loadConfig({ DATA_DIR: dir(), FULL_AUDIT_VECTOR_BAND: band }).FULL_AUDIT_VECTOR_BAND).toBe(band);
    for (const band of ['0.9-0.5', '0.6', 'on', '0.6-1.5-2', '0.5-0.5', '0.6-1.5', '-1.5-0.9']) expect(() => loadConfig({ DATA_DIR: dir(), FULL_AUDIT_VECTOR_BAND: band })).toThrow(/FULL_AUDIT_VECTOR_BAND/);
  });

  it('reads TEXT_PRELOAD_LANGUAGES as a list of languages, none by default, and names a bad one', () => {
    expect(loadConfig({ DATA_DIR: dir() }).TEXT_PRELOAD_LANGUAGES).toEqual([]);
    expect(loadConfig({ DATA_DIR: dir(), TEXT_PRELOAD_LANGUAGES: 'en,fr,en' }).TEXT_PRELOAD_LANGUAGES).toEqual(['en', 'fr']);
    expect(() => loadConfig({ DATA_DIR: dir(), TEXT_PRELOAD_LANGUAGES: 'en,de' })).toThrow(/TEXT_PRELOAD_LANGUAGES/);
  });
});

describe('loadConfig (public URLs)', () => {
  it('derives each public URL from its app port, so moving a port moves the URL clients are sent to', () => {
    expect(loadConfig({ DATA_DIR: dir() })).toMatchObject({ PUBLIC_AUTH_URL: 'http://localhost:3000', PUBLIC_AUDIT_URL: 'http://localhost:3001', PUBLIC_RETRIEVAL_URL: 'http://localhost:3002' });
    const moved = loadConfig({ DATA_DIR: dir(), PLATFORM_AUTH_PORT: '4100', AUDIT_PORT: '4101', RETRIEVAL_PORT: '4102' });
    expect(moved).toMatchObject({ PUBLIC_AUTH_URL: 'http://localhost:4100', PUBLIC_AUDIT_URL: 'http://localhost:4101', PUBLIC_RETRIEVAL_URL: 'http://localhost:4102' });
    expect(moved.allowedOrigins).toEqual(['http://localhost:4100', 'http://localhost:4101', 'http://localhost:4102']);
  });

  it('keeps a public URL that is set, whatever the port, and derives the others', () => {
    const config = loadConfig({ DATA_DIR: dir(), PLATFORM_AUTH_PORT: '4100', AUDIT_PORT: '4101', PUBLIC_AUTH_URL: 'https://auth.example.com', PUBLIC_RETRIEVAL_URL: '' });
    expect(config).toMatchObject({ PUBLIC_AUTH_URL: 'https://auth.example.com', PUBLIC_AUDIT_URL: 'http://localhost:4101', PUBLIC_RETRIEVAL_URL: 'http://localhost:3002' });
    expect(() => loadConfig({ DATA_DIR: dir(), PUBLIC_AUDIT_URL: 'audit.example.com' })).toThrow(/PUBLIC_AUDIT_URL/);
  });
});
