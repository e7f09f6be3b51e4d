import { DomainError, EnqueueOptions, JobQueue } from '@svc/kernel';
import { AnswerComposer, AnswerRequest, GroundedAnswer } from './answers/answer-composer';
import { FixedClock, ImmediateUnitOfWork, TestIds } from '@svc/kernel/testing';
import { AnswerSearch, dateRange, SearchAnswerSettings, SearchLogEntry, SearchLogRepository } from './search-answers';
import { SearchSemanticNodes, SemanticSearchResult } from './search-semantic-nodes.use-case';

describe('dateRange', () => {
  it('makes a date cover its whole UTC day, both ends inclusive', () => {
    const { from, to } = dateRange('2026-11-01', '2026-11-02');
    expect(from.toISOString()).toBe('2026-11-01T00:00:00.000Z');
    expect(to.toISOString()).toBe('2026-11-03T00:00:00.000Z');
  });

  it('takes date-times as given, the end inclusive', () => {
    const { from, to } = dateRange('2026-11-01T10:00:00Z', '2026-11-01T11:00:00Z');
    expect(to.getTime() - from.getTime()).toBe(3600_000 + 1);
  });

  it('reads a date-time without an offset as UTC (times are UTC), never in the server zone', () => {
    expect(dateRange('2026-01-01T10:00:00', '2026-01-01T10:30')).toEqual({ from: new Date('2026-01-01T10:00:00.000Z'), to: new Date('2026-01-01T10:30:00.001Z') });
  });

  it('reads date-times in the zone they carry, never the server zone', () => {
    expect(dateRange('2026-01-01T10:00:00+02:00', '2026-01-01T10:00:00.5-05:30')).toEqual({ from: new Date('2026-01-01T08:00:00.000Z'), to: new Date('2026-01-01T15:30:00.501Z') });
    expect(dateRange('2026-01-01T10:00Z', '2026-01-01T10:00:00.123456Z')).toEqual({ from: new Date('2026-01-01T10:00:00.000Z'), to: new Date('2026-01-01T10:00:00.124Z') });
    expect(dateRange('2024-02-29', '2024-02-29')).toEqual({ from: new Date('2024-02-29T00:00:00.000Z'), to: new Date('2024-03-01T00:00:00.000Z') });
  });

  it.each([
    ['March 3 2026', 'not a date'],
    ['12345', 'not a date'],
    ['2026-3-1', 'not a date'],
    ['2026-03-01 10:00:00Z', 'not a date'],
    ['2026-03-01T10:00:00+0200', 'not a date'],
    ['2026-03-01T10:00:00z', 'not a date'],
    ['', 'not a date'],
    ['2026-02-30', 'not a calendar date'],
    ['2025-02-29', 'not a calendar date'],
    ['2026-13-01', 'not a calendar date'],
    ['2026-04-31', 'not a calendar date'],
    ['2026-00-10', 'not a calendar date'],
    ['2026-03-01T24:00:00Z', 'not a calendar date'],
    ['2026-03-01T10:60:00Z', 'not a calendar date'],
    ['2026-03-01T10:00:60Z', 'not a calendar date'],
    ['2026-03-01T10:00:00+24:00', 'not a calendar date'],
  ])('refuses %j with the usual 400 naming the field and the format', (value, reason) => {
    for (const [begin, end, field] of [[value, '2026-12-31', 'begin_date'], ['2020-01-01', value, 'end_date']]) {
      let thrown: unknown;
      try {
        dateRange(begin, end);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(DomainError);
      expect(thrown).toMatchObject({ kind: 'invalid', code: 'REQUEST.INVALID_DATE', message: expect.stringContaining(`${field} is ${reason}`), errors: [{ field, message: expect.stringContaining('YYYY-MM-DD') }] });
      expect((thrown as DomainError).errors?.[0].message).toMatch(/ISO 8601 date-time/);
    }
  });

  it('names a bad or reversed range', () => {
    expect(() => dateRange('yesterday', '2026-11-01')).toThrow(expect.objectContaining({ errors: [expect.objectContaining({ field: 'begin_date' })] }));
    expect(() => dateRange('2026-11-02', '2026-11-01')).toThrow(expect.objectContaining({ code: 'REQUEST.EMPTY_RANGE' }));
  });
});

describe('AnswerSearch', () => {
  const refunds: SemanticSearchResult = {
    semantic_nodes: [
      { id: 'kn_1', document_id: 'kd_refunds', text: 'Refunds are processed within 30 days.', score: 0.9, position: 0 },
      { id: 'kn_2', document_id: 'kd_parking', text: 'Parking is free.', score: 0.2, position: 0 },
    ],
    documents_contents: [
      { document_id: 'kd_refunds', document_name: 'refunds.md', document_url: 'https://intranet.example/refunds', excerpts: [] },
      { document_id: 'kd_parking', document_name: 'parking.md', document_url: null, excerpts: [] },
    ],
  };

  class InMemorySearchLogs extends SearchLogRepository {
    readonly entries: SearchLogEntry[] = [];
    async insert(entry: SearchLogEntry) {
      this.entries.push(entry);
    }
    async count() {
      return this.entries.length;
    }
    async list() {
      return this.entries;
    }
    async since() {
      return this.entries;
    }
  }

  class RecordingJobs extends JobQueue {
    readonly queued: { name: string; payload: object; options?: EnqueueOptions }[] = [];
    async enqueueUntyped(name: string, payload: object, options?: EnqueueOptions) {
      this.queued.push({ name, payload, options });
      return `job_${this.queued.length}`;
    }
  }

  class ScriptedModel extends AnswerComposer {
    readonly name = 'scripted';
    readonly requests: AnswerRequest[] = [];
    constructor(private readonly reply: () => Promise<GroundedAnswer>) {
      super();
    }
    compose(request: AnswerRequest) {
      this.requests.push(request);
      return this.reply();
    }
  }

  function answerSearch(reply: () => Promise<GroundedAnswer>, threshold = 0.5) {
    const search = { execute: async () => refunds } as unknown as SearchSemanticNodes;
    const logs = new InMemorySearchLogs();
    const model = new ScriptedModel(reply);
    const jobs = new RecordingJobs();
    const useCase = new AnswerSearch(search, model, logs, new SearchAnswerSettings(threshold), new TestIds(), new FixedClock(), new ImmediateUnitOfWork(), jobs);
    return { useCase, logs, model, jobs };
  }

  it('answers from the excerpts it hands the model, cites only the cited documents and logs the answer', async () => {
    const { useCase, logs, model } = answerSearch(async () => ({ answer: 'Within 30 days.', reason: 'kn_1 says so.', confidence: 0.8234, citedExcerptIds: ['kn_1'] }));
    const result = await useCase.execute('ki_1', 'How long do refunds take?', 'alice');
    expect(result).toEqual({
      query: 'How long do refunds take?',
      answer: 'Within 30 days.',
      reason: 'kn_1 says so.',
      confident_rate: 0.823,
      got_answer: true,
      documents: [{ id: 'kd_refunds', name: 'refunds.md', url: 'https://intranet.example/refunds' }],
    });
    expect(model.requests[0].excerpts.map((e) => [e.id, e.documentName])).toEqual([
      ['kn_1', 'refunds.md'],
      ['kn_2', 'parking.md'],
    ]);
    expect(logs.entries).toEqual([expect.objectContaining({ instanceId: 'ki_1', userId: 'alice', answerText: 'Within 30 days.', gotAnswer: true, id: expect.stringMatching(/^sl_/) })]);
  });

  it('treats an answer below the threshold as no answer, and tells the missing subjects with one coalesced job per instance', async () => {
    const { useCase, logs, jobs } = answerSearch(async () => ({ answer: 'Maybe 30 days.', reason: 'Weak.', confidence: 0.4, citedExcerptIds: ['kn_1'] }));
    const result = await useCase.execute('ki_1', 'refunds?', 'bob');
    expect(result).toMatchObject({ answer: '', got_answer: false, confident_rate: 0, documents: [], reason: 'Weak.' });
    expect(logs.entries[0]).toMatchObject({ answerText: '', gotAnswer: false });
    expect(jobs.queued).toEqual([{ name: 'missing-subjects.searches-logged', payload: { instanceId: 'ki_1' }, options: { dedupeKey: 'missing-subjects.searches-logged:ki_1', delayMs: 2000 } }]);
  });

  it('logs the query as unanswered when the model is unavailable, and passes the error on', async () => {
    const outage = DomainError.unavailable('LLM.UNAVAILABLE', 'The language model is unavailable (HTTP 529 overloaded_error, 3 attempts).', { retryAfterSeconds: 7 });
    const { useCase, logs } = answerSearch(async () => {
      throw outage;
    });
    await expect(useCase.execute('ki_1', 'How long do refunds take?', 'carol')).rejects.toBe(outage);
    expect(logs.entries).toEqual([expect.objectContaining({ query: 'How long do refunds take?', userId: 'carol', answerText: '', gotAnswer: false, confidentRate: 0 })]);
  });

  it('does not log a query that failed on a bug rather than an outage', async () => {
    const { useCase, logs } = answerSearch(async () => {
      throw new TypeError('boom');
    });
    await expect(useCase.execute('ki_1', 'q', 'dave')).rejects.toThrow('boom');
    expect(logs.entries).toEqual([]);
  });
});
