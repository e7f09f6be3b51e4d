import { Injectable, Logger } from '@nestjs/common';
import { RecommendationWriter } from '@svc/conflicts-core';
import { ActivityLog, Clock, IdGenerator, loggableError, Page, PageRequest, Principal, replayLostRace, UnitOfWork } from '@svc/kernel';
import type { AnswerKind, DraftRecommendation, ExtractedAnswer, Passage } from '@svc/text';
import { AuditInstanceAccess, DocumentVisibility, GetInstanceStep } from '@svc/workspace-core';
import type { CompanionRecommendation, FullAuditConflict, FullAuditState } from './full-audit-conflict';
import { concurrentFullAuditEdit, forbiddenFullAuditMove, fullAuditConflictNotFound } from './full-audit.errors';
import { FullAuditChanges, FullAuditConflictRepository, ModelBatchStore, ScanState, ScanStore, Visible } from './full-audit.ports';
import { FullAuditMove, fullAuditTransition } from './full-audit.states';
import { CompanionRecommendationView, FullAuditConflictView, FullAuditViews, isVisibleFullAudit, recommendationViewOf } from './full-audit-views';
import { ScanModelLedger, ScanModelUsage } from './discovery/discovery.ports';
import { DiscoverySettings } from './discovery/model-discovery';

/** One conflict the caller may see, or 404 (BEHAVIOUR.md §3: a hidden conflict does not exist for them). */
@Injectable()
export class VisibleFullAuditConflicts {
  constructor(
    private readonly conflicts: FullAuditConflictRepository,
    private readonly visibility: DocumentVisibility,
  ) {}

  visibleTo(access: AuditInstanceAccess, principal: Principal): Promise<Visible> {
    return this.visibility.visibleTo(access, principal.userId);
  }

  async get(access: AuditInstanceAccess, principal: Principal, conflictId: string): Promise<{ conflict: FullAuditConflict; visible: Visible }> {
    const conflict = await this.conflicts.get(access.instanceId, conflictId);
    if (!conflict) throw fullAuditConflictNotFound(conflictId);
    const visible = await this.visibleTo(access, principal);
    if (!isVisibleFullAudit(conflict, visible)) throw fullAuditConflictNotFound(conflictId);
    return { conflict, visible };
  }
}

/** States only a scan gives a conflict. */
const SCAN_STATES: ReadonlySet<FullAuditState> = new Set(['REDETECTED', 'DISAPPEARED']);

/** The one way people change a full-audit conflict: versioned (409 when a person changed it meanwhile), with its activity entry. */
@Injectable()
export class FullAuditEdits {
  constructor(
    private readonly conflicts: FullAuditConflictRepository,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly activity: ActivityLog,
  ) {}

  now(): Date {
    return this.clock.now();
  }

  /**
   * A person's edit of the conflict as it is now: `build` makes the changes from the conflict just read (null: nothing
   * to do). A scan refreshes every conflict it finds again (excerpts, explanation, last seen) and may move its state
   * (REDETECTED, DISAPPEARED, back to DETECTED); a race lost to it is played again on the conflict read anew, at most
   * three times. A race lost to another person (the answer changed, or a move to MANAGED or IGNORED) stays a 409.
   */
  applyLatest(read: () => Promise<FullAuditConflict>, build: (conflict: FullAuditConflict) => Promise<{ changes: FullAuditChanges; action: string } | null>, actor: Principal): Promise<void> {
    const byPerson = (conflict: FullAuditConflict, previous: FullAuditConflict, first: FullAuditConflict) => {
      const byScan = conflict.state === previous.state || SCAN_STATES.has(conflict.state) || (conflict.state === 'DETECTED' && previous.state === 'DISAPPEARED');
      return conflict.answer !== first.answer || !byScan;
    };
    return replayLostRace(read, build, (edit, conflict) => this.apply(conflict, edit.changes, edit.action, actor), byPerson, 'FULL_AUDIT.CONCURRENT_EDIT');
  }

  apply(conflict: FullAuditConflict, changes: FullAuditChanges, action: string, actor: Principal): Promise<void> {
    return this.uow.run(async () => {
      if (!(await this.conflicts.update(conflict, { updatedAt: this.clock.now(), ...changes }))) throw concurrentFullAuditEdit(conflict.id);
      const logged = Object.keys(changes).filter((k) => k !== 'updatedAt' && k !== 'compagnonRecommendations');
      const before = Object.fromEntries(logged.map((k) => [k, conflict[k as keyof FullAuditChanges] ?? null]));
      const after = Object.fromEntries(logged.map((k) => [k, changes[k as keyof FullAuditChanges] ?? null]));
      await this.activity.record({ organizationId: conflict.organizationId, instanceId: conflict.instanceId, action, subjectId: conflict.id, actor, before, after });
    });
  }
}

export interface ListFullAuditConflictsInput {
  principal: Principal;
  access: AuditInstanceAccess;
  page: PageRequest;
  /** Default ['DETECTED']; [] means every state but DISAPPEARED. */
  states?: FullAuditState[];
  onlyLinkedToQuestion?: boolean;
}

/** The worklist: the instance's full-audit conflicts the caller may see, newest first, documents hydrated. */
@Injectable()
export class ListFullAuditConflicts {
  constructor(
    private readonly conflicts: FullAuditConflictRepository,
    private readonly visible: VisibleFullAuditConflicts,
    private readonly views: FullAuditViews,
  ) {}

  async execute(input: ListFullAuditConflictsInput): Promise<Page<FullAuditConflictView>> {
    const visible = await this.visible.visibleTo(input.access, input.principal);
    const page = await this.conflicts.list(input.access.instanceId, { states: input.states ?? ['DETECTED'], onlyLinked: input.onlyLinkedToQuestion ?? false, visible }, input.page);
    return { ...page, items: await this.views.views(input.access, page.items, visible) };
  }
}

@Injectable()
export class GetFullAuditConflict {
  constructor(
    private readonly visible: VisibleFullAuditConflicts,
    private readonly views: FullAuditViews,
  ) {}

  async execute(input: { principal: Principal; access: AuditInstanceAccess; conflictId: string }): Promise<FullAuditConflictView> {
    const { conflict, visible } = await this.visible.get(input.access, input.principal, input.conflictId);
    const [view] = await this.views.views(input.access, [conflict], visible);
    return view;
  }
}

export interface FullAuditScanProgress {
  state: ScanState;
  reason: string;
  documents: number;
  chunks: number;
  chunks_done: number;
  started_at: string;
  finished_at: string | null;
  findings: number | null;
  /** With model-led discovery only (absent offline): what the model cost the scan, against its budget. */
  model?: ScanModelProgress;
}

/** What model-led discovery cost a scan so far, its budget, and the calls the whole scan is estimated to take. */
export interface ScanModelProgress {
  calls: number;
  budget_calls: number;
  input_tokens: number;
  output_tokens: number;
  /** `budget` or `outage` when the model work stopped before the end (the next scan resumes it); null otherwise. */
  stopped: ScanModelUsage['stopped'];
  /**
   * While the documents are read: the calls so far scaled to every chunk (the judging's calls come on top); then
   * the calls made. Capped by the budget.
   */
  estimated_calls: number;
}

/** The model's part of a scan's progress (pure). */
export function scanModelProgress(usage: ScanModelUsage, budget: number, scan: { state: ScanState; chunks: number }, chunksDone: number): ScanModelProgress {
  const reading = scan.state === 'RUNNING' && chunksDone > 0 && chunksDone < scan.chunks;
  const estimate = reading ? Math.round((usage.calls * scan.chunks) / chunksDone) : usage.calls;
  return { calls: usage.calls, budget_calls: budget, input_tokens: usage.inputTokens, output_tokens: usage.outputTokens, stopped: usage.stopped, estimated_calls: Math.min(estimate, budget) };
}

/**
 * `have-to-show` (BEHAVIOUR.md §6): `show` once the instance is in RUNNING_PHASE and one full scan has
 * completed; `scan` says how the running scan (else the last one) is progressing, null before any;
 * `awaiting_model` how many candidates await the model's verdicts in a batch (they are raised once confirmed). With
 * model-led discovery, the scan's `model`: calls and tokens so far, the budget, why it stopped early, an estimate.
 */
@Injectable()
export class HaveToShowFullAudit {
  constructor(
    private readonly steps: GetInstanceStep,
    private readonly scans: ScanStore,
    private readonly batches: ModelBatchStore,
    private readonly discovery: DiscoverySettings,
    private readonly ledger: ScanModelLedger,
  ) {}

  async execute(input: { access: AuditInstanceAccess }): Promise<{ show: boolean; scan: FullAuditScanProgress | null; awaiting_model: number }> {
    const { instanceId } = input.access;
    const [step, completed, running] = [await this.steps.execute(instanceId), await this.scans.lastCompleted(instanceId), await this.scans.running(instanceId)];
    const scan = running ?? completed;
    const chunksDone = scan ? (scan.state === 'COMPLETED' ? scan.chunks : await this.scans.chunksDone(scan.id)) : 0;
    const progress: FullAuditScanProgress | null = scan
      ? {
          state: scan.state,
          reason: scan.reason,
          documents: scan.total,
          chunks: scan.chunks,
          chunks_done: chunksDone,
          started_at: scan.startedAt.toISOString(),
          finished_at: scan.finishedAt?.toISOString() ?? null,
          findings: scan.findings,
          ...(this.discovery.enabled ? { model: scanModelProgress(await this.ledger.usage(scan.id), this.discovery.budgetCalls, scan, chunksDone) } : {}),
        }
      : null;
    return { show: step === 'RUNNING_PHASE' && completed !== null, scan: progress, awaiting_model: await this.batches.awaiting(instanceId) };
  }
}

type ConflictInput = { principal: Principal; access: AuditInstanceAccess; conflictId: string };

/** close, ignore and set-state: one move of the state table each, idempotent repeats answered 200. */
@Injectable()
export class MoveFullAuditConflict {
  constructor(
    private readonly visible: VisibleFullAuditConflicts,
    private readonly edits: FullAuditEdits,
  ) {}

  async execute(input: ConflictInput & { move: Exclude<FullAuditMove, 'set-answer'>; action: string }): Promise<true> {
    await this.edits.applyLatest(
      async () => (await this.visible.get(input.access, input.principal, input.conflictId)).conflict,
      async (conflict) => {
        const move = fullAuditTransition(conflict.state, input.move);
        if (move.kind === 'same') return null;
        if (move.kind !== 'to') throw forbiddenFullAuditMove(conflict.id, input.move, conflict.state);
        const now = this.edits.now();
        return { changes: { state: move.state, ...(move.state === 'MANAGED' ? { managedAt: now, absentSince: null } : {}) }, action: input.action };
      },
      input.principal,
    );
    return true;
  }
}

/**
 * Records the expert's answer and drafts per-document recommendations synchronously (BEHAVIOUR.md §6):
 * the state stays until close; the recommendations are returned and saved as
 * `compagnon_recommendations`. When drafting fails the answer is saved and the list is empty: call again.
 */
@Injectable()
export class SetFullAuditAnswer {
  private readonly logger = new Logger(SetFullAuditAnswer.name);

  constructor(
    private readonly visible: VisibleFullAuditConflicts,
    private readonly edits: FullAuditEdits,
    private readonly writer: RecommendationWriter,
    private readonly views: FullAuditViews,
    private readonly ids: IdGenerator,
  ) {}

  async execute(input: ConflictInput & { answer: string }): Promise<{ recommendations: CompanionRecommendationView[] }> {
    let visible: Visible = 'all';
    let saved: { conflict: FullAuditConflict; recommendations: CompanionRecommendation[] } | null = null;
    // Drafted again from the conflict read anew when a scan refreshed its statements meanwhile.
    await this.edits.applyLatest(
      async () => {
        const read = await this.visible.get(input.access, input.principal, input.conflictId);
        visible = read.visible;
        return read.conflict;
      },
      async (conflict) => {
        const move = fullAuditTransition(conflict.state, 'set-answer');
        if (move.kind !== 'keep') throw forbiddenFullAuditMove(conflict.id, 'set-answer', conflict.state);
        const recommendations = await this.draft(conflict, input.answer);
        saved = { conflict, recommendations };
        return { changes: { answer: input.answer, answeredAt: this.edits.now(), compagnonRecommendations: recommendations }, action: 'audit_full_audit_conflict_set_answer' };
      },
      input.principal,
    );
    const { conflict, recommendations } = saved!;
    const names = await this.views.names(input.access, conflict.documentIds);
    return { recommendations: recommendations.filter((r) => visible === 'all' || visible.includes(r.documentId)).map((r) => recommendationViewOf(r, names)) };
  }

  /** One recommendation per document of the conflict, from the writer's drafts (none when it fails: the answer is saved anyway). */
  private async draft(conflict: FullAuditConflict, answer: string): Promise<CompanionRecommendation[]> {
    const { answers, passages } = answersOf(conflict);
    let drafts: DraftRecommendation[] = [];
    try {
      drafts = await this.writer.write({ question: conflict.compagnonQuestions[0] ?? conflict.subject, expertAnswer: answer, answers, passages });
    } catch (error) {
      this.logger.warn({ conflictId: conflict.id, writer: this.writer.name, error: loggableError(error) }, 'recommendations could not be drafted; the answer is saved and set-expert-answer may be called again');
    }
    const seen = new Set<string>();
    return drafts
      .filter((d) => conflict.documentIds.includes(d.documentId) && !seen.has(d.documentId) && seen.add(d.documentId))
      .map((d) => ({ id: this.ids.next('rec_'), documentId: d.documentId, action: d.action, excerpt: d.excerpt, proposedText: d.proposedText, reason: d.reason, estimatedSeconds: Math.max(0, Math.round(d.estimatedSeconds)) }));
  }
}

/** The kinds of the rule-based judge's attributes (`Claim.attribute`), read as answer kinds as they always were. */
const RULE_ATTRIBUTE_KINDS: ReadonlySet<string> = new Set(['amount', 'percentage', 'duration', 'date', 'date-range', 'time', 'time-range', 'recurrence', 'quantity', 'number', 'count', 'weekdays', 'annual-date']);
const VALUE_KINDS: ReadonlySet<string> = new Set(['amount', 'percentage', 'duration', 'date', 'date-range', 'time', 'time-range', 'recurrence', 'quantity', 'number']);

/**
 * What kind of answer a conflict's statements give: its attribute's kind for the rule-based judge's findings; for a
 * model's finding (its own attribute: "approver", "deadline"), the kind @svc/text typed its value as, else a name.
 */
function answerKindOf(attribute: string, valueKey: string): AnswerKind {
  if (attribute === 'modality') return 'yes-no';
  const kind = attribute.split(':')[0];
  if (RULE_ATTRIBUTE_KINDS.has(kind)) return kind as AnswerKind;
  const typed = valueKey.split(':')[0];
  return (VALUE_KINDS.has(typed) ? typed : 'named') as AnswerKind;
}

/** The conflict's two statements as the recommendation writer reads answers: the sentence is the passage, the value its answer. */
export function answersOf(conflict: FullAuditConflict): { answers: ExtractedAnswer[]; passages: Passage[] } {
  const passages: Passage[] = conflict.excerpts.map((e, i) => ({ id: `${e.semanticNodeId}#${i}`, documentId: e.documentId, text: e.text, documentName: e.documentName }));
  const answers: ExtractedAnswer[] = conflict.excerpts.map((e, i) => ({
    passageId: `${e.semanticNodeId}#${i}`,
    documentId: e.documentId,
    start: 0,
    end: e.text.length,
    text: e.text,
    kind: answerKindOf(conflict.attribute, e.valueKey),
    key: e.valueKey,
    display: e.value,
    scope: e.scope,
    confidence: 1,
  }));
  return { answers, passages };
}
