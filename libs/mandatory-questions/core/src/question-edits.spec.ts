import type { ActivityLog, Clock, UnitOfWork } from '@svc/kernel';
import { VersionedRow } from '@svc/kernel/testing';
import type { MandatoryQuestion } from './mandatory-question';
import type { MandatoryQuestionRepository } from './mandatory-questions.ports';
import { QuestionEdits } from './question-edits';

/** One stored question with its version, changed by "the analysis" or "another expert" between a read and a write. */
function store(initial: Partial<MandatoryQuestion>) {
  const rows = new VersionedRow<MandatoryQuestion>({ id: 'mq_1', instanceId: 'ki_1', organizationId: 'org_1', question: 'How long?', state: 'CONFLICTS', answer: null, companionQuestions: [], retrievedDocumentIds: [], createdAt: new Date(0), updatedAt: new Date(0), analyzedAt: null, version: 1, ...initial });
  const repository = { update: rows.update } as unknown as MandatoryQuestionRepository;
  const edits = new QuestionEdits(repository, { now: () => new Date(1) } as Clock, { run: <T>(work: () => Promise<T>) => work() } as UnitOfWork, { record: async () => undefined } as unknown as ActivityLog);
  return { edits, read: rows.read, meanwhile: rows.meanwhile, row: () => rows.row() };
}

describe('QuestionEdits.applyLatest: an expert edit against the service’s own analysis', () => {
  const ignore = (question: MandatoryQuestion) => ({ question, changes: { state: 'IGNORED' as const }, action: 'ignore', actor: null });

  it('plays the edit again on the question read anew when the analysis changed it meanwhile', async () => {
    const s = store({ state: 'CONFLICTS' });
    s.meanwhile.push(() => ({ state: 'ANALYZING' }));
    await s.edits.applyLatest(s.read, ignore);
    expect(s.row()).toMatchObject({ state: 'IGNORED', version: 3 });
  });

  it('keeps the 409 when another expert changed the answer or closed the question meanwhile: no silent overwrite', async () => {
    const answered = store({});
    answered.meanwhile.push(() => ({ answer: '14 days' }));
    await expect(answered.edits.applyLatest(answered.read, (question) => ({ question, changes: { answer: '30 days' }, action: 'answer', actor: null }))).rejects.toMatchObject({ code: 'MANDATORY_QUESTION.CONCURRENT_EDIT' });
    expect(answered.row().answer).toBe('14 days');
    const managed = store({});
    managed.meanwhile.push(() => ({ state: 'MANAGED' }));
    await expect(managed.edits.applyLatest(managed.read, ignore)).rejects.toMatchObject({ code: 'MANDATORY_QUESTION.CONCURRENT_EDIT' });
    expect(managed.row().state).toBe('MANAGED');
  });

  it('gives up after three lost races', async () => {
    const s = store({});
    s.meanwhile.push(() => ({ state: 'ANALYZING' }), () => ({ state: 'CONFLICTS' }), () => ({ state: 'ANALYZING' }));
    await expect(s.edits.applyLatest(s.read, ignore)).rejects.toMatchObject({ code: 'MANDATORY_QUESTION.CONCURRENT_EDIT' });
  });
});
