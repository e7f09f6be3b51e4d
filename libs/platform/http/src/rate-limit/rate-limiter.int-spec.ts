import { randomBytes } from 'node:crypto';
import { AddressInfo, createServer, Server, Socket } from 'node:net';
import { DomainError } from '@svc/kernel';
import Redis, { RedisOptions, ReplyError } from 'ioredis';
import { errorBody } from '../error-body';
import { enforceRateLimits } from './enforce-rate-limits';
import { MemoryRateLimiter } from './memory.rate-limiter';
import { RedisRateLimiter } from './redis.rate-limiter';
import { rateLimiterContract } from './testing/rate-limiter.contract';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Fail fast, as production clients of the limiter should. */
const FAIL_FAST: RedisOptions = { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 300, retryStrategy: () => 100, disconnectTimeout: 100 };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function client(url = REDIS_URL, options: RedisOptions = {}): Redis {
  const redis = new Redis(url, { ...FAIL_FAST, ...options });
  redis.on('error', () => undefined);
  return redis;
}

/** Disconnects and waits until ioredis has let go of its socket and timers, so Jest sees no open handle. */
async function closeClient(redis: Redis): Promise<void> {
  if (redis.status !== 'end') {
    const ended = new Promise<void>((resolve) => redis.once('end', () => resolve()));
    redis.disconnect();
    await Promise.race([ended, sleep(200)]);
  }
  // ioredis ends a socket that is already gone with a destroy timer of disconnectTimeout: outlast it.
  await sleep(150);
}

async function keysUnder(redis: Redis, prefix: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
    cursor = next;
    found.push(...keys);
  } while (cursor !== '0');
  return found;
}

async function deletePrefix(prefix: string): Promise<void> {
  const redis = client(REDIS_URL, { enableOfflineQueue: true });
  try {
    const keys = await keysUnder(redis, prefix);
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    await closeClient(redis);
  }
}

rateLimiterContract('MemoryRateLimiter (fake clock)', async () => {
  let now = Date.UTC(2026, 0, 1);
  const limiter = new MemoryRateLimiter({ now: () => now });
  return {
    limiter,
    advance: async (ms) => {
      now += ms;
    },
    close: async () => limiter.close(),
  };
});

describe('RedisRateLimiter', () => {
  const prefix = `rl-test-${randomBytes(4).toString('hex')}`;
  const redis = client(REDIS_URL, { enableOfflineQueue: true });

  afterAll(async () => {
    await deletePrefix(prefix);
    await closeClient(redis);
  });

  rateLimiterContract('RedisRateLimiter', async () => ({
    limiter: new RedisRateLimiter(redis, { prefix: `${prefix}:contract`, onError: 'closed' }),
    advance: sleep,
  }));

  it('stores only hashed keys under its prefix, each expiring with its window', async () => {
    const limiter = new RedisRateLimiter(redis, { prefix: `${prefix}:hashed`, onError: 'closed' });
    await limiter.hit('key-exchange.key', 'svc_org_RAWSECRETvalue', { limit: 5, windowSeconds: 60 });
    await limiter.hit('login.account', 'ada@example.com', { limit: 5, windowSeconds: 900 });
    const keys = (await keysUnder(redis, `${prefix}:hashed`)).sort();
    expect(keys).toEqual([
      expect.stringMatching(new RegExp(`^${prefix}:hashed:key-exchange\\.key:[0-9a-f]{32}$`)),
      expect.stringMatching(new RegExp(`^${prefix}:hashed:login\\.account:[0-9a-f]{32}$`)),
    ]);
    // (Not 'ada': it is valid hex, so a hash can contain it; the patterns above already pin 32 hex digits.)
    expect(keys.join()).not.toMatch(/RAWSECRET|example/);
    const [keyTtl, accountTtl] = await Promise.all(keys.map((key) => redis.pttl(key)));
    expect(keyTtl).toBeGreaterThan(50_000);
    expect(keyTtl).toBeLessThanOrEqual(60_000);
    expect(accountTtl).toBeGreaterThan(890_000);
    expect(accountTtl).toBeLessThanOrEqual(900_000);
    const members = await redis.zrange(keys[0], 0, -1);
    expect(members.join()).not.toContain('RAWSECRET');
  });

  it('counts once across processes: limiters on separate connections share the window', async () => {
    const other = client(REDIS_URL, { enableOfflineQueue: true });
    try {
      const a = new RedisRateLimiter(redis, { prefix: `${prefix}:shared` });
      const b = new RedisRateLimiter(other, { prefix: `${prefix}:shared` });
      const rule = { limit: 10, windowSeconds: 60 };
      const decisions = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).hit('login.ip', '203.0.113.5', rule)));
      expect(decisions.filter((decision) => decision.allowed)).toHaveLength(10);
      await b.reset('login.ip', '203.0.113.5');
      expect((await a.hit('login.ip', '203.0.113.5', rule)).remaining).toBe(9);
    } finally {
      await closeClient(other);
    }
  });

  it('sends the script itself when the server does not have it cached (NOSCRIPT)', async () => {
    let refusals = 0;
    const forgetful = new Proxy(redis, {
      get(target, property, receiver) {
        if (property === 'evalsha' && refusals === 0) {
          return async () => {
            refusals += 1;
            throw new ReplyError('NOSCRIPT No matching script. Please use EVAL.');
          };
        }
        const value = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const limiter = new RedisRateLimiter(forgetful, { prefix: `${prefix}:noscript`, onError: 'closed' });
    expect(await limiter.hit('b', 'k', { limit: 2, windowSeconds: 60 })).toEqual({ allowed: true, remaining: 1, retryAfterSeconds: 0 });
    expect(await limiter.hit('b', 'k', { limit: 2, windowSeconds: 60 })).toEqual({ allowed: true, remaining: 0, retryAfterSeconds: 0 });
    expect(refusals).toBe(1);
  });
});

describe('RedisRateLimiter while Redis is unreachable', () => {
  const rule = { limit: 1, windowSeconds: 60 };
  let closedPort: number;
  let down: Redis;

  beforeAll(async () => {
    // A port that was just free: nothing listens there, connections are refused at once.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    closedPort = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    down = client(`redis://127.0.0.1:${closedPort}`);
  });
  afterAll(() => closeClient(down));

  it("fails open by default: allows, and logs one warning per outage that names no key", async () => {
    const logger = { warn: jest.fn() };
    const limiter = new RedisRateLimiter(down, { logger });
    const started = Date.now();
    for (let i = 0; i < 5; i += 1) {
      expect(await limiter.hit('login.account', 'ada@example.com', rule)).toEqual({ allowed: true, remaining: 0, retryAfterSeconds: 0 });
    }
    await expect(limiter.reset('login.account', 'ada@example.com')).resolves.toBeUndefined();
    expect(Date.now() - started).toBeLessThan(2000);
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn.mock.calls[0][0]).toMatch(/Redis failed on bucket login\.account .*failing open/);
    expect(logger.warn.mock.calls[0][0]).not.toContain('ada');
  });

  it('fails closed on request: a 503 with Retry-After, which enforceRateLimits passes on', async () => {
    const limiter = new RedisRateLimiter(down, { onError: 'closed', unavailableRetryAfterSeconds: 7, logger: { warn: jest.fn() } });
    const error = await enforceRateLimits(limiter, [{ bucket: 'login.ip', key: '203.0.113.5', rule }]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ kind: 'unavailable', code: 'RATE_LIMIT.UNAVAILABLE', retryAfterSeconds: 7 });
    expect(errorBody(error as DomainError, 'req_1').status).toBe(503);
    // A failed reset must not fail the login that triggered it.
    await expect(limiter.reset('login.ip', '203.0.113.5')).resolves.toBeUndefined();
  });

  describe('a Redis that accepts connections and never answers', () => {
    let silent: Server;
    const sockets = new Set<Socket>();
    let hung: Redis;

    beforeAll(async () => {
      silent = createServer((socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
      });
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      // No ready check nor client info: the client believes it is connected, so commands are sent and wait.
      hung = client(`redis://127.0.0.1:${(silent.address() as AddressInfo).port}`, { enableReadyCheck: false, disableClientInfo: true });
      await new Promise<void>((resolve) => hung.once('ready', () => resolve()));
    });
    afterAll(async () => {
      for (const socket of sockets) socket.destroy();
      await closeClient(hung);
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    });

    it('gives up after timeoutMs, then fails open or closed as configured', async () => {
      const open = new RedisRateLimiter(hung, { timeoutMs: 200, logger: { warn: jest.fn() } });
      const closed = new RedisRateLimiter(hung, { timeoutMs: 200, onError: 'closed', logger: { warn: jest.fn() } });
      const started = Date.now();
      expect((await open.hit('token.ip', '203.0.113.5', rule)).allowed).toBe(true);
      await expect(closed.hit('token.ip', '203.0.113.5', rule)).rejects.toMatchObject({ kind: 'unavailable' });
      await expect(closed.reset('token.ip', '203.0.113.5')).resolves.toBeUndefined();
      expect(Date.now() - started).toBeGreaterThanOrEqual(550);
      expect(Date.now() - started).toBeLessThan(1500);
    });
  });
});
