import { Provider } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@svc/config';
import { Database } from '@svc/database';
import { READINESS_CHECKS, ReadinessCheck } from '@svc/http';
import Redis from 'ioredis';

class DatabaseReadiness extends ReadinessCheck {
  readonly name = 'database';
  constructor(private readonly database: Database) {
    super();
  }
  check(): Promise<boolean> {
    return this.database.ping(2000);
  }
}

class RedisReadiness extends ReadinessCheck {
  readonly name = 'redis';
  private readonly client: Redis;
  constructor(url: string) {
    super();
    // No offline queue and no retries: a probe must answer "down" now, not wait for a reconnect.
    this.client = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, connectTimeout: 1000, retryStrategy: () => 2000 });
    this.client.on('error', () => undefined);
  }
  async check(): Promise<boolean> {
    try {
      if (this.client.status === 'wait' || this.client.status === 'end') await this.client.connect();
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<string>((resolve) => (timer = setTimeout(() => resolve('timeout'), 1500)));
      const result = await Promise.race([this.client.ping(), timeout]);
      clearTimeout(timer);
      return result === 'PONG';
    } catch {
      return false;
    }
  }
}

/** Database always; Redis when the deployment uses it and this app enqueues or runs jobs. */
export function readinessProvider(usesJobs: boolean): Provider {
  return {
    provide: READINESS_CHECKS,
    inject: [Database, APP_CONFIG],
    useFactory: (database: Database, config: AppConfig): ReadinessCheck[] => [
      new DatabaseReadiness(database),
      ...(usesJobs && config.REDIS_URL ? [new RedisReadiness(config.REDIS_URL)] : []),
    ],
  };
}
