import { ActivityEntry, ActivityLog } from '../activity';
import { Clock } from '../clock';
import { DomainError, isDomainError } from '../domain-error';
import { IdGenerator, IdPrefix, newId } from '../ids';
import { UnitOfWork } from '../unit-of-work';

/** Test doubles of the kernel ports, shared by every context's use-case unit tests (`@svc/kernel/testing`). */

export class FixedClock extends Clock {
  constructor(public current = new Date('2026-11-21T10:00:00Z')) {
    super();
  }
  now() {
    return new Date(this.current);
  }
  advance(ms: number) {
    this.current = new Date(this.current.getTime() + ms);
  }
}

export class TestIds extends IdGenerator {
  next(prefix: IdPrefix) {
    return newId(prefix);
  }
}

export class ImmediateUnitOfWork extends UnitOfWork {
  run<T>(work: () => Promise<T>) {
    return work();
  }
}

export class RecordingActivityLog extends ActivityLog {
  readonly entries: ActivityEntry[] = [];
  async record(entry: ActivityEntry) {
    this.entries.push(entry);
  }
}

/** The DomainError a promise rejects with; throws when it resolves, or rethrows any other rejection. */
export async function domainErrorOf(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (error) {
    if (isDomainError(error)) return error;
    throw error;
  }
  throw new Error('expected a DomainError, but the promise resolved');
}
