import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { QuestionAnalyzedPayload, SearchesLoggedPayload } from '@svc/contracts';
import { ActivityLog, Clock, DomainError, IdGenerator, Page, PageRequest, Principal, UnitOfWork } from '@svc/kernel';
import {
  DEFAULT_SEARCH_NOISE_OPTIONS,
  denoiseSearches,
  joinSubject,
  leaveSubject,
  nearestSubject,
  normalizeSearch,
  questionTerms,
  subjectLabel,
  SUBJECTS,
  termVector,
  updateTermStatistics,
} from '@svc/text';
import { AuditInstanceAccess, GetInstanceStep } from '@svc/workspace-core';
import { CompanionDocumentWriter } from './companion-writer';
import {
  LoggedSearch,
  MissingSubject,
  MissingSubjectQuestion,
  MissingSubjectRepository,
  MissingSubjectState,
  SEARCHES_SOURCE,
  SearchDemand,
  SubjectChanges,
  SubjectQuestionRepository,
  SubjectQuestionSource,
} from './missing-subject';

/** Searches read per instance at most (the newest), for the 90-day window. */
const SEARCH_WINDOW_LIMIT = 20000;

export const missingSubjectNotFound = (id: string) => DomainError.notFound('MISSING_SUBJECT.NOT_FOUND', `Missing subject ${id} does not exist.`);

const concurrentSubjectEdit = (id: string) =>
  DomainError.conflict('MISSING_SUBJECT.CONCURRENT_EDIT', `Missing subject ${id} was changed meanwhile; nothing was saved.`, { hint: 'Read it again (audit_missing_subject_find) and repeat the change if it still applies.' });

/**
 * The cosine distance a question joins its nearest subject within (`SUBJECTS.threshold` by default), and
 * what makes an unanswered search recur (distinct users, or askings; `SUBJECTS.searches` by default).
 */
export class MissingSubjectsSettings {
  constructor(
    readonly threshold: number = SUBJECTS.threshold,
    readonly searchMinUsers: number = SUBJECTS.searches.minUsers,
    readonly searchMinRepeats: number = SUBJECTS.searches.minRepeats,
  ) {}
}

export interface MissingSubjectView {
  id: string;
  instance_id: string;
  subject: string;
  state: MissingSubjectState;
  question_count: number;
  compagnon_proposition: string | null;
  created_at: string;
  updated_at: string;
}

export const missingSubjectView = (s: MissingSubject): MissingSubjectView => ({
  id: s.id,
  instance_id: s.instanceId,
  subject: s.label,
  state: s.state,
  question_count: s.questionCount,
  compagnon_proposition: s.proposition,
  created_at: s.createdAt.toISOString(),
  updated_at: s.updatedAt.toISOString(),
});

export interface SubjectQuestionView {
  id: string;
  question: string;
  answer: string | null;
  source: string;
}

/**
 * Makes the questions of one source (a mandatory question, or the searches) equal to what it leaves
 * unanswered now (ANALYSIS.md §5): the questions it no longer lists leave their subjects (a subject
 * left empty is closed: removed), the new ones join the nearest subject within the threshold or start
 * one. One transaction under the instance's subject lock; the term statistics move with the questions.
 */
@Injectable()
export class SubjectMembership {
  constructor(
    private readonly subjects: MissingSubjectRepository,
    private readonly questions: SubjectQuestionRepository,
    private readonly settings: MissingSubjectsSettings,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly activity: ActivityLog,
  ) {}

  async sync(payload: { instanceId: string; organizationId: string; sourceRef: string; unanswered: { text: string; source: SubjectQuestionSource }[] }): Promise<string> {
    const { instanceId, organizationId } = payload;
    return this.uow.run(async () => {
      await this.subjects.lock(instanceId);
      const now = this.clock.now();
      let stats = await this.subjects.statistics(instanceId);
      const wanted = new Map(payload.unanswered.map((u) => [`${u.source}|${normalizeSearch(u.text)}`, u]));
      const existing = await this.questions.fromSource(instanceId, payload.sourceRef);
      const kept = new Set<string>();
      let left = 0;
      let joined = 0;
      for (const q of existing) {
        const key = `${q.source}|${normalizeSearch(q.text)}`;
        if (wanted.has(key) && !kept.has(key)) {
          kept.add(key);
          continue;
        }
        await this.leave(q, now);
        stats = updateTermStatistics(stats, q.terms, -1);
        left += 1;
      }
      for (const [key, u] of wanted) {
        if (kept.has(key)) continue;
        const terms = questionTerms(u.text);
        stats = updateTermStatistics(stats, terms, 1);
        const vector = termVector(terms, stats);
        const open = await this.subjects.all(instanceId);
        const nearest = nearestSubject(vector, open.map((s) => ({ id: s.id, centroid: s.profile.centroid })), this.settings.threshold);
        const question: MissingSubjectQuestion = { id: this.ids.next('msq_'), instanceId, subjectId: '', text: u.text, source: u.source, sourceRef: payload.sourceRef, terms, vector, answer: null, answeredAt: null, createdAt: now };
        const subject = nearest ? open.find((s) => s.id === nearest.id)! : null;
        if (subject) {
          question.subjectId = subject.id;
          await this.questions.insert(question);
          await this.relabel(subject, joinSubject(subject.profile, vector), subject.questionCount + 1, now, stats);
        } else {
          const created: MissingSubject = {
            id: this.ids.next('ms_'),
            instanceId,
            organizationId,
            label: subjectLabel([terms], stats).label,
            state: 'PENDING',
            profile: joinSubject(null, vector),
            questionCount: 1,
            proposition: null,
            propositionKey: null,
            createdAt: now,
            updatedAt: now,
            version: 1,
          };
          await this.subjects.insert(created);
          question.subjectId = created.id;
          await this.questions.insert(question);
          await this.activity.record({ organizationId, instanceId, action: 'missing_subject.detected', subjectId: created.id, actor: null, before: null, after: { subject: created.label, question: u.text } });
        }
        joined += 1;
      }
      await this.subjects.saveStatistics(instanceId, stats);
      return `joined ${joined} left ${left}`;
    });
  }

  private async leave(q: MissingSubjectQuestion, now: Date): Promise<void> {
    await this.questions.remove(q.id);
    const subject = await this.subjects.get(q.instanceId, q.subjectId);
    if (!subject) return;
    const profile = leaveSubject(subject.profile, q.vector);
    if (!profile) {
      await this.subjects.remove(subject.id);
      await this.activity.record({ organizationId: subject.organizationId, instanceId: subject.instanceId, action: 'missing_subject.closed', subjectId: subject.id, actor: null, before: { subject: subject.label, state: subject.state }, after: null });
      return;
    }
    await this.relabel(subject, profile, subject.questionCount - 1, now, await this.subjects.statistics(subject.instanceId));
  }

  private async relabel(subject: MissingSubject, profile: MissingSubject['profile'], questionCount: number, now: Date, stats: Awaited<ReturnType<MissingSubjectRepository['statistics']>>): Promise<void> {
    const members = await this.questions.ofSubject(subject.instanceId, subject.id);
    const changes: SubjectChanges = { profile, questionCount, label: subjectLabel(members.map((m) => m.terms), stats).label, updatedAt: now };
    if (!(await this.subjects.update(subject, changes))) throw concurrentSubjectEdit(subject.id);
  }
}

/** What one mandatory-question analysis left unanswered (job `missing-subjects.question-analyzed`): its questions follow it. */
@Injectable()
export class RecordUnansweredQuestions {
  constructor(private readonly membership: SubjectMembership) {}

  execute(payload: QuestionAnalyzedPayload): Promise<string> {
    return this.membership.sync({ instanceId: payload.instanceId, organizationId: payload.organizationId, sourceRef: payload.questionId, unanswered: payload.unanswered });
  }
}

/**
 * Searches were logged (job `missing-subjects.searches-logged`, beyond the spec): the unanswered ones
 * that recur (several users, or repeats, as configured; test traffic and retries left out: `denoiseSearches`) over the
 * last 90 days are questions of the instance's subjects; one whose latest search got an answer, or
 * that stopped recurring, leaves.
 */
@Injectable()
export class RecordUnansweredSearches {
  constructor(
    private readonly steps: GetInstanceStep,
    private readonly demand: SearchDemand,
    private readonly membership: SubjectMembership,
    private readonly settings: MissingSubjectsSettings,
    private readonly clock: Clock,
  ) {}

  async execute(payload: SearchesLoggedPayload): Promise<string> {
    const facts = await this.steps.facts(payload.instanceId);
    if (!facts) return 'gone';
    const now = this.clock.now();
    const searches = await this.demand.recent(payload.instanceId, new Date(now.getTime() - SUBJECTS.searches.windowMs), SEARCH_WINDOW_LIMIT);
    const latest = new Map<string, LoggedSearch>();
    for (const s of searches) latest.set(normalizeSearch(s.query), s);
    const recurring = denoiseSearches(
      searches.filter((s) => !s.answered).map((s) => ({ query: s.query, userId: s.userId, at: s.at })),
      { ...DEFAULT_SEARCH_NOISE_OPTIONS, minUsers: this.settings.searchMinUsers, minRepeats: this.settings.searchMinRepeats, now },
    ).filter((r) => !latest.get(r.normalized)?.answered);
    return this.membership.sync({ instanceId: payload.instanceId, organizationId: facts.organizationId, sourceRef: SEARCHES_SOURCE, unanswered: recurring.map((r) => ({ text: r.query, source: 'search' as const })) });
  }
}

/** Missing subjects are about what no document says: every member of the instance sees all of them. */
@Injectable()
export class MissingSubjectQueries {
  constructor(
    private readonly subjects: MissingSubjectRepository,
    private readonly questions: SubjectQuestionRepository,
  ) {}

  async list(access: AuditInstanceAccess, page: PageRequest): Promise<Page<MissingSubjectView>> {
    const found = await this.subjects.list(access.instanceId, page);
    return { ...found, items: found.items.map(missingSubjectView) };
  }

  async find(access: AuditInstanceAccess, subjectId: string): Promise<MissingSubjectView> {
    return missingSubjectView(await this.load(access, subjectId));
  }

  async questionsOf(access: AuditInstanceAccess, subjectId: string): Promise<SubjectQuestionView[]> {
    await this.load(access, subjectId);
    return (await this.questions.ofSubject(access.instanceId, subjectId)).map((q) => ({ id: q.id, question: q.text, answer: q.answer, source: q.source }));
  }

  async load(access: AuditInstanceAccess, subjectId: string): Promise<MissingSubject> {
    const subject = await this.subjects.get(access.instanceId, subjectId);
    if (!subject) throw missingSubjectNotFound(subjectId);
    return subject;
  }
}

/** set-state: PENDING, MANAGED or IGNORED from any state (idempotent), in the activity log. */
@Injectable()
export class SetMissingSubjectState {
  constructor(
    private readonly queries: MissingSubjectQueries,
    private readonly subjects: MissingSubjectRepository,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly activity: ActivityLog,
  ) {}

  async execute(input: { principal: Principal; access: AuditInstanceAccess; subjectId: string; state: MissingSubjectState }): Promise<true> {
    const subject = await this.queries.load(input.access, input.subjectId);
    if (subject.state === input.state) return true;
    return this.uow.run(async (): Promise<true> => {
      if (!(await this.subjects.update(subject, { state: input.state, updatedAt: this.clock.now() }))) throw concurrentSubjectEdit(subject.id);
      await this.activity.record({ organizationId: subject.organizationId, instanceId: subject.instanceId, action: 'audit_missing_subject_set_state', subjectId: subject.id, actor: input.principal, before: { state: subject.state }, after: { state: input.state } });
      return true;
    });
  }
}

/** The expert's answer to a missing-subject question (`msq_`, through `audit_mandatory_question_set_answer`). False when it does not exist. */
@Injectable()
export class AnswerSubjectQuestion {
  constructor(
    private readonly questions: SubjectQuestionRepository,
    private readonly subjects: MissingSubjectRepository,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly activity: ActivityLog,
  ) {}

  async execute(input: { principal: Principal; access: AuditInstanceAccess; questionId: string; answer: string }): Promise<boolean> {
    const question = await this.questions.get(input.access.instanceId, input.questionId);
    if (!question) return false;
    const subject = await this.subjects.get(question.instanceId, question.subjectId);
    await this.uow.run(async () => {
      await this.questions.setAnswer(question.id, input.answer, this.clock.now());
      await this.activity.record({ organizationId: subject?.organizationId ?? input.access.instance.organizationId, instanceId: question.instanceId, action: 'audit_mandatory_question_set_answer', subjectId: question.id, actor: input.principal, before: { answer: question.answer }, after: { answer: input.answer } });
    });
    return true;
  }
}

/**
 * The companion document (BEHAVIOUR.md §7): 403 while any question of the subject has no answer;
 * otherwise a Markdown draft written from the answers only (by the configured model, else the
 * rule-based writer), cached with the hash of what it was written from and by, and returned from the
 * cache until an answer (or the subject's questions) change.
 */
@Injectable()
export class GenerateCompanionDocument {
  constructor(
    private readonly queries: MissingSubjectQueries,
    private readonly subjects: MissingSubjectRepository,
    private readonly questions: SubjectQuestionRepository,
    private readonly writer: CompanionDocumentWriter,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly activity: ActivityLog,
  ) {}

  async execute(input: { principal: Principal; access: AuditInstanceAccess; subjectId: string }): Promise<{ compagnon_proposition: string; cached: boolean }> {
    const subject = await this.queries.load(input.access, input.subjectId);
    const questions = await this.questions.ofSubject(subject.instanceId, subject.id);
    const unanswered = questions.filter((q) => !q.answer);
    if (unanswered.length > 0) {
      throw DomainError.forbidden('MISSING_SUBJECT.UNANSWERED_QUESTIONS', `${unanswered.length} of the ${questions.length} questions of missing subject ${subject.id} have no answer yet.`, {
        hint: `Answer them first with audit_mandatory_question_set_answer (question_id ${unanswered.map((q) => q.id).join(', ')}).`,
      });
    }
    const qa = questions.map((q) => ({ question: q.text, answer: q.answer! }));
    const key = createHash('sha256').update(JSON.stringify([this.writer.name, subject.label, qa])).digest('hex');
    if (subject.proposition && subject.propositionKey === key) return { compagnon_proposition: subject.proposition, cached: true };
    const proposition = await this.writer.write({ subject: subject.label, qa });
    await this.uow.run(async () => {
      if (!(await this.subjects.update(subject, { proposition, propositionKey: key, updatedAt: this.clock.now() }))) throw concurrentSubjectEdit(subject.id);
      await this.activity.record({ organizationId: subject.organizationId, instanceId: subject.instanceId, action: 'audit_missing_subject_generate_compagnon_document', subjectId: subject.id, actor: input.principal, before: null, after: { questions: qa.length, writer: this.writer.name } });
    });
    return { compagnon_proposition: proposition, cached: false };
  }
}
