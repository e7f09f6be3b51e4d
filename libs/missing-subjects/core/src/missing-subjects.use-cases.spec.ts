import { domainErrorOf, FixedClock, ImmediateUnitOfWork, RecordingActivityLog, TestIds } from '@svc/kernel/testing';
import type { Page, Principal } from '@svc/kernel';
import type { TermStatistics } from '@svc/text';
import type { AuditInstanceAccess, GetInstanceStep } from '@svc/workspace-core';
import { RuleBasedCompanionWriter } from './companion-writer';
import { LoggedSearch, MissingSubject, MissingSubjectQuestion, MissingSubjectRepository, SearchDemand, SubjectChanges, SubjectQuestionRepository } from './missing-subject';
import { AnswerSubjectQuestion, GenerateCompanionDocument, MissingSubjectQueries, MissingSubjectsSettings, RecordUnansweredQuestions, RecordUnansweredSearches, SubjectMembership } from './missing-subjects.use-cases';

const INSTANCE = 'ki_1';

class MemorySubjects extends MissingSubjectRepository {
  readonly rows = new Map<string, MissingSubject>();
  stats: TermStatistics = { questions: 0, frequencies: {} };
  async lock() {}
  async insert(s: MissingSubject) {
    this.rows.set(s.id, s);
  }
  async get(_: string, id: string) {
    return this.rows.get(id) ?? null;
  }
  async list(): Promise<Page<MissingSubject>> {
    throw new Error('not used');
  }
  async all() {
    return [...this.rows.values()];
  }
  async update(key: { id: string; version: number }, changes: SubjectChanges) {
    const s = this.rows.get(key.id);
    if (!s || s.version !== key.version) return false;
    this.rows.set(key.id, { ...s, ...changes, version: s.version + 1 });
    return true;
  }
  async remove(id: string) {
    this.rows.delete(id);
  }
  async statistics() {
    return this.stats;
  }
  async saveStatistics(_: string, stats: TermStatistics) {
    this.stats = stats;
  }
}

class MemoryQuestions extends SubjectQuestionRepository {
  readonly rows = new Map<string, MissingSubjectQuestion>();
  async insert(q: MissingSubjectQuestion) {
    this.rows.set(q.id, { ...q });
  }
  async get(_: string, id: string) {
    return this.rows.get(id) ?? null;
  }
  async ofSubject(_: string, subjectId: string) {
    return [...this.rows.values()].filter((q) => q.subjectId === subjectId);
  }
  async fromSource(_: string, ref: string) {
    return [...this.rows.values()].filter((q) => q.sourceRef === ref);
  }
  async remove(id: string) {
    this.rows.delete(id);
  }
  async setAnswer(id: string, answer: string, at: Date) {
    this.rows.set(id, { ...this.rows.get(id)!, answer, answeredAt: at });
  }
}

function setup() {
  const subjects = new MemorySubjects();
  const questions = new MemoryQuestions();
  const clock = new FixedClock();
  const uow = new ImmediateUnitOfWork();
  const activity = new RecordingActivityLog();
  const record = new RecordUnansweredQuestions(new SubjectMembership(subjects, questions, new MissingSubjectsSettings(), new TestIds(), clock, uow, activity));
  const queries = new MissingSubjectQueries(subjects, questions);
  const answer = new AnswerSubjectQuestion(questions, subjects, clock, uow, activity);
  const generate = new GenerateCompanionDocument(queries, subjects, questions, new RuleBasedCompanionWriter(), clock, uow, activity);
  const analyzed = (questionId: string, ...texts: string[]) => record.execute({ instanceId: INSTANCE, organizationId: 'org_1', questionId, unanswered: texts.map((text) => ({ text, source: 'mandatory_question' as const })) });
  return { subjects, questions, activity, analyzed, answer, generate };
}

const access = { instanceId: INSTANCE, instance: { organizationId: 'org_1' } } as unknown as AuditInstanceAccess;
const principal = { userId: 'usr_1' } as Principal;

describe('RecordUnansweredQuestions', () => {
  it('puts questions about one topic in one subject, others in their own, with readable labels and the term statistics kept', async () => {
    const t = setup();
    expect(await t.analyzed('mq_1', 'How many weeks of parental leave do employees get?')).toBe('joined 1 left 0');
    await t.analyzed('mq_2', 'How do I request parental leave?');
    await t.analyzed('mq_3', 'Where is the data retention schedule?');
    const subjects = [...t.subjects.rows.values()];
    expect(subjects.map((s) => [s.label, s.questionCount]).sort()).toEqual([
      ['Data retention schedule', 1],
      ['Parental leave', 2],
    ]);
    expect(t.subjects.stats.questions).toBe(3);
    expect(t.activity.entries.filter((e) => e.action === 'missing_subject.detected')).toHaveLength(2);
  });

  it('a repeated analysis with the same unanswered question changes nothing; one that no longer lists it takes it out, and closes the subject it leaves empty', async () => {
    const t = setup();
    await t.analyzed('mq_1', 'How many weeks of parental leave do employees get?');
    await t.analyzed('mq_2', 'How do I request parental leave?');
    const [subject] = t.subjects.rows.values();
    expect(await t.analyzed('mq_1', 'How many weeks of parental leave do employees get?')).toBe('joined 0 left 0');
    expect(await t.analyzed('mq_1')).toBe('joined 0 left 1');
    expect(t.subjects.rows.get(subject.id)).toMatchObject({ questionCount: 1 });
    expect(await t.analyzed('mq_2')).toBe('joined 0 left 1');
    expect(t.subjects.rows.size).toBe(0);
    expect(t.questions.rows.size).toBe(0);
    expect(t.subjects.stats.questions).toBe(0);
    expect(t.activity.entries.map((e) => e.action)).toContain('missing_subject.closed');
  });
});

describe('RecordUnansweredSearches', () => {
  it('keeps the unanswered searches two users asked, leaves out one user alone and test traffic, and lets a search go once its latest asking got an answer', async () => {
    const t = setup();
    const log: LoggedSearch[] = [];
    const demand = new (class extends SearchDemand {
      async recent() {
        return log;
      }
    })();
    const steps = { facts: async () => ({ step: 'RUNNING_PHASE', organizationId: 'org_1' }) } as unknown as GetInstanceStep;
    const clock = new FixedClock(new Date('2026-11-21T12:00:00Z'));
    const searches = new RecordUnansweredSearches(steps, demand, new SubjectMembership(t.subjects, t.questions, new MissingSubjectsSettings(), new TestIds(), clock, new ImmediateUnitOfWork(), t.activity), new MissingSubjectsSettings(), clock);
    const at = (minutes: number) => new Date(clock.now().getTime() - minutes * 60_000);
    log.push({ query: 'Where is the data retention schedule?', userId: 'alice', at: at(50), answered: false });
    log.push({ query: 'where is the data retention schedule', userId: 'bob', at: at(40), answered: false });
    log.push({ query: 'What is the canteen menu on Fridays?', userId: 'alice', at: at(30), answered: false });
    log.push({ query: 'test', userId: 'bob', at: at(20), answered: false });
    log.push({ query: 'test', userId: 'carol', at: at(20), answered: false });
    expect(await searches.execute({ instanceId: INSTANCE })).toBe('joined 1 left 0');
    expect([...t.questions.rows.values()].map((q) => [q.text, q.source, q.sourceRef])).toEqual([['Where is the data retention schedule?', 'search', 'searches']]);
    log.push({ query: 'Where is the data retention schedule?', userId: 'carol', at: at(1), answered: true });
    expect(await searches.execute({ instanceId: INSTANCE })).toBe('joined 0 left 1');
    expect(t.subjects.rows.size).toBe(0);
  });

  it('follows the configured noise rule: with one user enough, a lone unanswered search counts', async () => {
    const t = setup();
    const log: LoggedSearch[] = [{ query: 'What is the canteen menu on Fridays?', userId: 'alice', at: new Date('2026-11-21T11:00:00Z'), answered: false }];
    const demand = new (class extends SearchDemand {
      async recent() {
        return log;
      }
    })();
    const steps = { facts: async () => ({ step: 'RUNNING_PHASE', organizationId: 'org_1' }) } as unknown as GetInstanceStep;
    const clock = new FixedClock(new Date('2026-11-21T12:00:00Z'));
    const settings = new MissingSubjectsSettings(0.85, 1, 3);
    const searches = new RecordUnansweredSearches(steps, demand, new SubjectMembership(t.subjects, t.questions, settings, new TestIds(), clock, new ImmediateUnitOfWork(), t.activity), settings, clock);
    expect(await searches.execute({ instanceId: INSTANCE })).toBe('joined 1 left 0');
  });
});

describe('GenerateCompanionDocument', () => {
  it('refuses while a question has no answer, drafts from the answers, and serves the cache until an answer changes', async () => {
    const t = setup();
    await t.analyzed('mq_1', 'How many weeks of parental leave do employees get?');
    await t.analyzed('mq_2', 'How do I request parental leave?');
    const [subject] = t.subjects.rows.values();
    const [first, second] = t.questions.rows.values();
    expect((await domainErrorOf(t.generate.execute({ principal, access, subjectId: subject.id }))).code).toBe('MISSING_SUBJECT.UNANSWERED_QUESTIONS');
    expect(await t.answer.execute({ principal, access, questionId: first.id, answer: 'Sixteen weeks at full pay.' })).toBe(true);
    expect(await t.answer.execute({ principal, access, questionId: second.id, answer: 'Send the form to HR.' })).toBe(true);
    expect(await t.answer.execute({ principal, access, questionId: 'msq_unknown', answer: 'x' })).toBe(false);
    const drafted = await t.generate.execute({ principal, access, subjectId: subject.id });
    expect(drafted.cached).toBe(false);
    expect(drafted.compagnon_proposition).toContain('Sixteen weeks at full pay.');
    expect(await t.generate.execute({ principal, access, subjectId: subject.id })).toEqual({ compagnon_proposition: drafted.compagnon_proposition, cached: true });
    await t.answer.execute({ principal, access, questionId: second.id, answer: 'Send the form to HR eight weeks ahead.' });
    expect((await t.generate.execute({ principal, access, subjectId: subject.id })).cached).toBe(false);
  });
});
