import { ActivityEntry, ActivityLog } from '../activity';
import { Clock } from '../clock';
import { DomainError, isDomainError } from '../domain-error';
import { IdGenerator, IdPrefix, newId } from '../ids';
import { LanguageModel, StructuredCall, StructuredResult } from '../language-model';
import { UnitOfWork } from '../unit-of-work';

export { VersionedRow } from './versioned-row';

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

const SCRIPTED_USAGE = { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 };

/** One scripted reply of a `ScriptedLanguageModel`: a result, an error to throw, or a function of the call giving either. */
export type ScriptedReply = StructuredResult<unknown> | Error | ((call: StructuredCall) => StructuredResult<unknown> | Error);

/**
 * A LanguageModel for the capability adapters' unit tests: answers each call with the next scripted reply and
 * records the calls. `output`, `declined` and `malformed` build the replies a transport can give (a malformed
 * reply is what the transport reports once its one repeat failed too: `LLM.INVALID_RESPONSE`).
 */
export class ScriptedLanguageModel extends LanguageModel {
  readonly configured = true;
  readonly calls: StructuredCall[] = [];

  constructor(
    readonly script: ScriptedReply[] = [],
    readonly name = 'scripted:model',
  ) {
    super();
  }

  static output<T>(output: T): StructuredResult<T> {
    return { kind: 'output', output, usage: SCRIPTED_USAGE, model: 'scripted:model' };
  }

  static declined(): StructuredResult<never> {
    return { kind: 'declined', usage: SCRIPTED_USAGE, model: 'scripted:model' };
  }

  static malformed(): DomainError {
    return DomainError.unavailable('LLM.INVALID_RESPONSE', 'The language model gave no usable answer: its reply is not JSON.');
  }

  static outage(): DomainError {
    return DomainError.unavailable('LLM.UNAVAILABLE', 'The language model is unavailable (HTTP 529 overloaded_error, 3 attempts).', { retryAfterSeconds: 7 });
  }

  async complete<T>(call: StructuredCall): Promise<StructuredResult<T>> {
    this.calls.push(call);
    const next = this.script.shift();
    if (next === undefined) throw new Error('ScriptedLanguageModel: no scripted reply left');
    const reply = typeof next === 'function' ? next(call) : next;
    if (reply instanceof Error) throw reply;
    return reply as StructuredResult<T>;
  }
}

/**
 * One test of a contract suite (`<port>Contract`), or, when it does not apply to the adapter under test, the same
 * test reported as skipped with the reason in its name, never as passed: `notApplicable` is that reason (an
 * adapter that joins no transaction, a provider without batches), undefined or false when the test applies. The
 * reason must be known when the suite is declared, so a contract takes it from its options, not its fixture.
 */
export function contractTest(notApplicable: string | false | undefined, name: string, fn: () => Promise<unknown>, timeout?: number): void {
  if (notApplicable) it.skip(`${name} [skipped: ${notApplicable}]`, fn, timeout);
  else it(name, fn, timeout);
}
