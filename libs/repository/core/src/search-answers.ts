import { Injectable } from '@nestjs/common';
import { SEARCH_LOG_JOBS, searchLogJob } from '@svc/contracts';
import { Clock, DomainError, IdGenerator, isDomainError, JobQueue, UnitOfWork } from '@svc/kernel';
import { AnswerComposer, GroundedAnswer } from './answers/answer-composer';
import { SearchSemanticNodes } from './search-semantic-nodes.use-case';

/** The search answer record of the instance API (spec part 2). */
export interface SearchAnswer {
  query: string;
  answer: string;
  reason: string;
  confident_rate: number;
  got_answer: boolean;
  documents: { id: string; name: string; url: string }[];
}

export interface LoggedSearch {
  id: string;
  answer_text: string;
  query: string;
  user_id: string;
  date: string;
}

export interface SearchLogEntry {
  id: string;
  instanceId: string;
  query: string;
  userId: string;
  answerText: string;
  gotAnswer: boolean;
  confidentRate: number;
  createdAt: Date;
}

export abstract class SearchLogRepository {
  abstract insert(entry: SearchLogEntry): Promise<void>;
  /** Searches of the instance in [from, to) (either bound optional); answered ones only if asked. */
  abstract count(instanceId: string, options: { from?: Date; to?: Date; answeredOnly?: boolean }): Promise<number>;
  /** Oldest first (ties by id). */
  abstract list(instanceId: string, offset: number, limit: number): Promise<SearchLogEntry[]>;
  /** The newest `limit` searches since `from`, oldest first. */
  abstract since(instanceId: string, from: Date, limit: number): Promise<SearchLogEntry[]>;
}

/** Tunables of search answers, from configuration. */
export class SearchAnswerSettings {
  constructor(
    /** Below this confidence the search counts as unanswered (got_answer false, answer ''). */
    readonly threshold = 0.5,
    /** Semantic nodes handed to the answer composer. */
    readonly excerpts = 8,
  ) {}
}

/**
 * `/api/search/query`: retrieve (hybrid), let the AnswerComposer answer from the excerpts only, decide
 * `got_answer` by the configured threshold, and log the search whatever the outcome.
 */
@Injectable()
export class AnswerSearch {
  constructor(
    private readonly search: SearchSemanticNodes,
    private readonly composer: AnswerComposer,
    private readonly logs: SearchLogRepository,
    private readonly settings: SearchAnswerSettings,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly jobs: JobQueue,
  ) {}

  async execute(instanceId: string, query: string, userId: string): Promise<SearchAnswer> {
    const retrieved = await this.search.execute(instanceId, query, this.settings.excerpts);
    const names = new Map(retrieved.documents_contents.map((d) => [d.document_id, d]));
    let grounded: GroundedAnswer;
    try {
      grounded = await this.composer.compose({
        question: query,
        excerpts: retrieved.semantic_nodes.map((n) => ({ id: n.id, documentId: n.document_id, documentName: names.get(n.document_id)?.document_name ?? '', text: n.text, score: n.score })),
      });
    } catch (error) {
      // The model is down or answered nonsense: the caller gets the error (503 with Retry-After), and
      // the query is still logged, unanswered, so the counts show the demand the outage left unmet.
      if (isDomainError(error) && error.kind === 'unavailable') await this.log(instanceId, query, userId, { answer: '', got_answer: false, confident_rate: 0 });
      throw error;
    }
    const gotAnswer = grounded.answer.trim() !== '' && grounded.confidence >= this.settings.threshold;
    const cited = new Set(grounded.citedExcerptIds);
    const documentIds = [...new Set(retrieved.semantic_nodes.filter((n) => cited.has(n.id)).map((n) => n.document_id))];
    const result: SearchAnswer = gotAnswer
      ? {
          query,
          answer: grounded.answer,
          reason: grounded.reason,
          confident_rate: Math.round(grounded.confidence * 1000) / 1000,
          got_answer: true,
          documents: documentIds.map((id) => ({ id, name: names.get(id)?.document_name ?? '', url: names.get(id)?.document_url ?? '' })),
        }
      : { query, answer: '', reason: grounded.reason || 'The repository does not answer this question.', confident_rate: 0, got_answer: false, documents: [] };
    await this.log(instanceId, query, userId, result);
    return result;
  }

  /** Logs the search and, in the same transaction, tells the contexts that read the searches (SEARCH_LOG_JOBS). */
  private async log(instanceId: string, query: string, userId: string, result: Pick<SearchAnswer, 'answer' | 'got_answer' | 'confident_rate'>): Promise<void> {
    await this.uow.run(async () => {
      await this.logs.insert({
        id: this.ids.next('sl_'),
        instanceId,
        query,
        userId,
        answerText: result.answer,
        gotAnswer: result.got_answer,
        confidentRate: result.confident_rate,
        createdAt: this.clock.now(),
      });
      for (const job of SEARCH_LOG_JOBS) await this.jobs.enqueue(job, { instanceId }, searchLogJob(job, instanceId));
    });
  }
}

/** A date-range bound: `YYYY-MM-DD`, or a date-time (`Z`, `±hh:mm` or no zone = UTC), seconds and fraction optional. */
const DATE_INPUT = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|([+-])(\d{2}):(\d{2}))?)?$/;
const DATE_FORMAT = 'YYYY-MM-DD (a whole UTC day) or an ISO 8601 date-time, e.g. 2026-03-01T10:00:00Z (UTC when it has no offset)';

/**
 * Strict ISO 8601 reading of a date-range bound (BEHAVIOUR.md §1: times are UTC; a date or a
 * date-time; days are UTC days). A date-time without an offset is UTC, never the server's own zone;
 * calendar-impossible values (2026-02-30, 25:00) are refused rather than rolled over.
 */
function parseDateInput(value: string, field: string): { date: Date; dayOnly: boolean } {
  const invalid = (detail: string) =>
    DomainError.invalid('REQUEST.INVALID_DATE', detail, { errors: [{ field, message: `${field} must be ${DATE_FORMAT}` }] });
  const m = DATE_INPUT.exec(value);
  if (!m) throw invalid(`${field} is not a date: expected ${DATE_FORMAT}.`);
  const [, y, mo, d, h, mi, sec, fraction, , sign, oh, om] = m;
  const [year, month, day, hour, minute, second] = [y, mo, d, h ?? '0', mi ?? '0', sec ?? '0'].map(Number);
  const offsetMinutes = sign === undefined ? 0 : (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om));
  const daysInMonth = [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
  if (day < 1 || day > daysInMonth || hour > 23 || minute > 59 || second > 59 || (oh !== undefined && (Number(oh) > 23 || Number(om) > 59))) {
    throw invalid(`${field} is not a calendar date or time: ${value}.`);
  }
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, Number((fraction ?? '0').padEnd(3, '0').slice(0, 3)));
  return { date: new Date(date.getTime() - offsetMinutes * 60_000), dayOnly: h === undefined };
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Inclusive date range of the stats endpoints: a date means that whole UTC day. */
export function dateRange(begin: string, end: string): { from: Date; to: Date } {
  const from = parseDateInput(begin, 'begin_date').date;
  const last = parseDateInput(end, 'end_date');
  // An end date covers its whole day; an end date-time is inclusive to the millisecond.
  const to = new Date(last.date.getTime() + (last.dayOnly ? 86_400_000 : 1));
  if (to <= from) throw DomainError.invalid('REQUEST.EMPTY_RANGE', 'end_date is before begin_date.', { errors: [{ field: 'end_date', message: 'end_date must not be before begin_date' }] });
  return { from, to };
}

@Injectable()
export class SearchStats {
  constructor(private readonly logs: SearchLogRepository) {}

  /** What other contexts read of the search log (missing subjects): the newest `limit` searches since `from`, oldest first. */
  recent(instanceId: string, from: Date, limit: number): Promise<SearchLogEntry[]> {
    return this.logs.since(instanceId, from, limit);
  }

  countByDate(instanceId: string, begin: string, end: string, answeredOnly: boolean): Promise<number> {
    return this.logs.count(instanceId, { ...dateRange(begin, end), answeredOnly });
  }

  count(instanceId: string, answeredOnly: boolean): Promise<number> {
    return this.logs.count(instanceId, { answeredOnly });
  }

  async list(instanceId: string, offset: number, limit: number): Promise<LoggedSearch[]> {
    return (await this.logs.list(instanceId, offset, limit)).map((e) => ({ id: e.id, answer_text: e.answerText, query: e.query, user_id: e.userId, date: e.createdAt.toISOString() }));
  }
}
