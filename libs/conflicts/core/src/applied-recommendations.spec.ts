import { FixedClock, ImmediateUnitOfWork, RecordingActivityLog } from '@svc/kernel/testing';
import { recommendationApplied, TrackAppliedRecommendations } from './applied-recommendations.use-case';
import { CurrentDocumentText, QuestionConflictRepository, RecommendationRepository } from './conflicts.ports';
import type { QuestionConflict, Recommendation } from './question-conflict';

const EXCERPT = 'Refunds of an order are processed within **30 days** of the request.';

describe('recommendationApplied', () => {
  const update = { action: 'UPDATE' as const, excerpt: EXCERPT, proposedText: 'Refunds of an order are processed within 14 days of the request.' };
  it.each([
    ['an UPDATE whose excerpt was rewritten', update, '# Refunds\n\nRefunds of an order are processed within 14 days of the request.', true],
    ['an UPDATE whose excerpt is still there (markup, case and spacing aside)', update, '# Refunds\n\nrefunds of an order are processed   within 30 days of the request.\n\nMore.', false],
    ['an UPDATE whose proposed text was added beside the old one', update, `${EXCERPT}\n\nRefunds of an order are processed within 14 days of the request.`, true],
    ['a DELETE whose excerpt is gone', { action: 'DELETE' as const, excerpt: EXCERPT, proposedText: null }, '# Refunds\n\nSee the customer FAQ.', true],
    ['a DELETE whose excerpt is still there', { action: 'DELETE' as const, excerpt: EXCERPT, proposedText: null }, `# Refunds\n\n${EXCERPT}`, false],
    ['any recommendation of a deleted document', update, null, true],
    ['a KEEP, never', { action: 'KEEP' as const, excerpt: EXCERPT, proposedText: null }, 'Something else entirely.', false],
  ])('%s', (_what, r, current, expected) => {
    expect(recommendationApplied(r, current)).toBe(expected);
  });
});

class MemoryRecommendations extends RecommendationRepository {
  constructor(readonly rows: Recommendation[]) {
    super();
  }
  async replaceDrafts() {}
  async moveStatus() {}
  async ofConflict() {
    return [];
  }
  async pendingForDocument(instanceId: string, documentId: string) {
    return this.rows.filter((r) => r.instanceId === instanceId && r.documentId === documentId && r.status === 'PENDING');
  }
  async markApplied(ids: string[]) {
    const moved = this.rows.filter((r) => ids.includes(r.id) && r.status === 'PENDING');
    for (const r of moved) r.status = 'APPLIED';
    return moved.map((r) => r.id);
  }
}

const rec = (id: string, documentId: string, action: Recommendation['action'], excerpt = EXCERPT, proposedText: string | null = null): Recommendation => ({
  id,
  instanceId: 'ki_1',
  conflictId: 'qc_1',
  documentId,
  action,
  excerpt,
  proposedText,
  reason: 'r',
  estimatedSeconds: 60,
  status: 'PENDING',
  createdAt: new Date('2026-11-20T00:00:00Z'),
});

describe('TrackAppliedRecommendations', () => {
  function setup(texts: Record<string, string | null>, rows: Recommendation[]) {
    const recommendations = new MemoryRecommendations(rows);
    const conflicts = { get: async () => ({ organizationId: 'org_1' }) as QuestionConflict } as unknown as QuestionConflictRepository;
    const documents = { read: async (_: string, id: string) => texts[id] ?? null } as CurrentDocumentText;
    const activity = new RecordingActivityLog();
    const track = new TrackAppliedRecommendations(recommendations, conflicts, documents, new FixedClock(), new ImmediateUnitOfWork(), activity);
    return { recommendations, activity, track };
  }

  it('marks APPLIED what the new content carries out, leaves the rest and KEEPs pending, and logs each', async () => {
    const { recommendations, activity, track } = setup({ kd_1: 'Refunds take 14 days.' }, [rec('rec_1', 'kd_1', 'UPDATE'), rec('rec_2', 'kd_1', 'UPDATE', 'Refunds take 14 days.'), rec('rec_3', 'kd_1', 'KEEP'), rec('rec_4', 'kd_2', 'DELETE')]);
    expect(await track.execute({ instanceId: 'ki_1', documentId: 'kd_1', change: 'indexed' })).toBe('applied 1 of 2');
    expect(recommendations.rows.map((r) => [r.id, r.status])).toEqual([
      ['rec_1', 'APPLIED'],
      ['rec_2', 'PENDING'],
      ['rec_3', 'PENDING'],
      ['rec_4', 'PENDING'],
    ]);
    expect(activity.entries).toMatchObject([{ action: 'recommendation.applied', subjectId: 'rec_1', organizationId: 'org_1', actor: null, after: { status: 'APPLIED', document_id: 'kd_1', change: 'indexed' } }]);
    // The same change seen again (a retried job): nothing more.
    expect(await track.execute({ instanceId: 'ki_1', documentId: 'kd_1', change: 'indexed' })).toBe('applied 0 of 1');
  });

  it('a deleted document applies its UPDATE and DELETE work; a document not indexed (yet) applies nothing', async () => {
    const deleted = setup({}, [rec('rec_1', 'kd_1', 'DELETE'), rec('rec_2', 'kd_1', 'UPDATE')]);
    expect(await deleted.track.execute({ instanceId: 'ki_1', documentId: 'kd_1', change: 'deleted' })).toBe('applied 2 of 2');
    const pending = setup({ kd_1: null }, [rec('rec_1', 'kd_1', 'DELETE')]);
    expect(await pending.track.execute({ instanceId: 'ki_1', documentId: 'kd_1', change: 'indexed' })).toBe('not_indexed');
    expect(pending.recommendations.rows[0].status).toBe('PENDING');
    expect(await setup({ kd_1: 'x' }, []).track.execute({ instanceId: 'ki_1', documentId: 'kd_1', change: 'indexed' })).toBe('nothing pending');
  });
});
