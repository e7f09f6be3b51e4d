import { ThrottledWarning } from '@svc/kernel';
import { Logger } from '@nestjs/common';
import { Queue } from 'bullmq';
import { producerConnection, withTimeout } from './bullmq-connection';
import { queueOf } from '@svc/contracts';
import { ROW_BACKOFF_TYPE } from './bullmq-job-worker';
import type { EnqueueSignal } from './enqueue-signal';
import type { JobTable } from './job-table';
import { describeFailure } from './retry-policy';

export interface OutboxRelayOptions {
  redisUrl: string;
  /** Redis key prefix of the queues; the workers must use the same. */
  prefix: string;
  pollIntervalMs: number;
  /** Rows read per round. */
  batchSize?: number;
  /** How long to wait for Redis before leaving rows for the next round. */
  redisTimeoutMs?: number;
}

const DAY_SECONDS = 24 * 3600;

/**
 * BullMQ's priority of a background job. Interactive jobs have none, and BullMQ runs those first (strictly: a
 * queue's waiting interactive jobs all run before its background ones; people, not machines, make them, so
 * their stream is bounded).
 */
export const BACKGROUND_PRIORITY = 10;

/**
 * Copies committed job rows (`relayed_at IS NULL`) to BullMQ, then stamps them. The BullMQ job id is
 * the row id, so a row added twice (two relays, or a crash between the add and the stamp) is one
 * BullMQ job. While Redis is unreachable rows simply stay unrelayed, and the next round (every poll
 * interval, or at once after a local enqueue commits) tries again.
 */
export class OutboxRelay {
  private readonly logger = new Logger('OutboxRelay');
  private readonly warning = new ThrottledWarning(this.logger);
  private readonly queues = new Map<string, Queue>();
  private readonly stopped = new AbortController();
  private wakeUp?: () => void;
  private woken = false;
  private loop?: Promise<void>;
  private unlisten?: () => void;

  constructor(
    private readonly table: JobTable,
    private readonly signal: EnqueueSignal,
    private readonly options: OutboxRelayOptions,
  ) {}

  start(): void {
    if (this.loop || this.stopped.signal.aborted) return;
    this.unlisten = this.signal.listen(() => this.wake());
    this.loop = this.run();
  }

  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  /**
   * Relays up to one batch and returns how many rows reached Redis. Never throws for Redis trouble
   * (it logs, and the rows wait); throws when the database cannot be read or stamped.
   */
  async relayOnce(): Promise<number> {
    const rows = await this.table.unrelayed(this.options.batchSize ?? 100);
    const relayed: string[] = [];
    try {
      for (const row of rows) {
        const queue = this.queue(queueOf(row.name));
        const timeoutMs = this.options.redisTimeoutMs ?? 2000;
        await withTimeout(queue.waitUntilReady(), timeoutMs, 'Redis is unreachable');
        await withTimeout(
          queue.add(
            row.name,
            { payload: row.payload },
            {
              jobId: row.id,
              attempts: row.max_attempts,
              backoff: { type: ROW_BACKOFF_TYPE },
              delay: Number(row.delay_ms),
              // BullMQ takes jobs without a priority first: interactive ones; background ones wait behind them.
              ...(row.interactive ? {} : { priority: BACKGROUND_PRIORITY }),
              removeOnComplete: { age: DAY_SECONDS, count: 1000 },
              removeOnFail: { age: 7 * DAY_SECONDS },
            },
          ),
          timeoutMs,
          'Redis did not answer',
        );
        relayed.push(row.id);
      }
    } catch (error) {
      this.warning.warn(`Jobs wait in the outbox: ${describeFailure(error)}`);
    }
    await this.table.markRelayed(relayed);
    return relayed.length;
  }

  /** Stops the loop and closes the queues' Redis connections (forcibly after `timeoutMs`). */
  async stop(timeoutMs = 2000): Promise<void> {
    this.stopped.abort();
    this.unlisten?.();
    this.wakeUp?.();
    await this.loop;
    const queues = [...this.queues.values()];
    this.queues.clear();
    try {
      await withTimeout(Promise.all(queues.map((q) => q.close())), timeoutMs, 'timeout');
    } catch {
      // A queue that never reached Redis can wait forever for its connection: drop it.
      await Promise.allSettled(queues.map((q) => q.disconnect()));
    }
  }

  private async run(): Promise<void> {
    const batchSize = this.options.batchSize ?? 100;
    while (!this.stopped.signal.aborted) {
      this.woken = false;
      let full = false;
      try {
        full = (await this.relayOnce()) >= batchSize;
      } catch (error) {
        if (this.stopped.signal.aborted) return;
        this.logger.error(`Could not read the outbox: ${describeFailure(error)}`);
      }
      if (!full && !this.woken) await this.sleep();
    }
  }

  private queue(name: string): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: producerConnection(this.options.redisUrl), prefix: this.options.prefix });
      queue.on('error', (error) => this.warning.warn(`BullMQ queue "${name}": ${error.message}`));
      this.queues.set(name, queue);
    }
    return queue;
  }

  private sleep(): Promise<void> {
    if (this.stopped.signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => done(), this.options.pollIntervalMs);
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = undefined;
        resolve();
      };
      this.wakeUp = done;
    });
  }
}
