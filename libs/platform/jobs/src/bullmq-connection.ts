import type { RedisOptions } from 'bullmq';

/**
 * Redis options for BullMQ producers (the relay's queues): fail fast instead of buffering commands
 * while Redis is away. The rows stay unrelayed and the relay tries again, so nothing waits in memory.
 * Workers get plain `{ url }`: BullMQ makes their connections retry forever, as a consumer should.
 */
export function producerConnection(url: string): RedisOptions {
  return { url, maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2000 };
}

/** Resolves `promise`, or rejects with `message` after `ms`. The timer never keeps the process alive. */
export async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(message)), ms);
        timer.unref();
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
