import { Injectable } from '@nestjs/common';
import { ActivityLog, Clock, IdGenerator, UnitOfWork } from '@svc/kernel';
import type { FullAuditConflict, FullAuditFinding } from './full-audit-conflict';
import { FullAuditChanges, FullAuditConflictRepository, QuestionLinks } from './full-audit.ports';
import type { ScanStep } from './scan-plan';
import { FULL_AUDIT_SCAN } from './scan-settings';

/** What a judgement raises: a new finding, or one coming back after it had disappeared; null for the other steps. */
export function raisedBy(step: ScanStep): FullAuditFinding | null {
  if (step.kind === 'insert') return step.finding;
  return step.kind === 'move' && step.finding && step.event === 'returned' ? step.finding : null;
}

/**
 * Writes what a judgement decided (the judge's steps, or a batch's confirmed candidates): in
 * transactions of FULL_AUDIT_SCAN.writeBatch steps, with the questions linked to each finding and the
 * activity log. Returns how many of each event happened.
 */
@Injectable()
export class ScanStepWriter {
  constructor(
    private readonly conflicts: FullAuditConflictRepository,
    private readonly links: QuestionLinks,
    private readonly activity: ActivityLog,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
  ) {}

  async write(instanceId: string, organizationId: string, steps: ScanStep[]): Promise<Record<string, number>> {
    const links = await this.linksOf(instanceId, steps);
    const counts: Record<string, number> = {};
    for (let i = 0; i < steps.length; i += FULL_AUDIT_SCAN.writeBatch) {
      const batch = steps.slice(i, i + FULL_AUDIT_SCAN.writeBatch);
      await this.uow.run(async () => {
        for (const step of batch) {
          const applied = await this.apply(step, instanceId, organizationId, links);
          if (applied) counts[applied] = (counts[applied] ?? 0) + 1;
        }
      });
    }
    return counts;
  }

  private linksOf(instanceId: string, steps: ScanStep[]): Promise<Map<string, FullAuditConflict['linkedQuestions']>> {
    const findings = new Map<string, FullAuditFinding['excerpts']>();
    for (const step of steps) {
      const finding = step.kind === 'insert' || step.kind === 'refresh' || step.kind === 'move' ? step.finding : null;
      if (finding) findings.set(finding.fingerprint, finding.excerpts);
    }
    return findings.size === 0 ? Promise.resolve(new Map()) : this.links.linked(instanceId, findings);
  }

  /** One step, in the caller's transaction; the activity log says what the scan did. Returns what happened, or null. */
  private async apply(step: ScanStep, instanceId: string, organizationId: string, links: Map<string, FullAuditConflict['linkedQuestions']>): Promise<string | null> {
    const now = this.clock.now();
    if (step.kind === 'insert') {
      const conflict: FullAuditConflict = {
        ...step.finding,
        id: this.ids.next('fc_'),
        instanceId,
        organizationId,
        state: 'DETECTED',
        linkedQuestions: links.get(step.finding.fingerprint) ?? [],
        answer: null,
        compagnonRecommendations: [],
        createdAt: now,
        updatedAt: now,
        lastSeenAt: now,
        answeredAt: null,
        managedAt: null,
        absentSince: null,
        version: 1,
      };
      if (!(await this.conflicts.insertIfNew(conflict))) return null;
      await this.activity.record({ organizationId, instanceId, action: 'full_audit_conflict.detected', subjectId: conflict.id, actor: null, before: null, after: { state: 'DETECTED', fingerprint: conflict.fingerprint } });
      return 'detected';
    }
    const { conflict } = step;
    const fresh = (finding: FullAuditFinding): FullAuditChanges => ({
      excerpts: finding.excerpts,
      documentIds: finding.documentIds,
      pairs: finding.pairs,
      subject: finding.subject,
      explanation: finding.explanation,
      compagnonQuestions: finding.compagnonQuestions,
      linkedQuestions: links.get(finding.fingerprint) ?? conflict.linkedQuestions,
      lastSeenAt: now,
    });
    if (step.kind === 'refresh') {
      // A concurrent edit by a person wins; the next scan refreshes again.
      await this.conflicts.update(conflict, { ...fresh(step.finding), updatedAt: now });
      return null;
    }
    if (step.kind === 'mark-absent') {
      await this.conflicts.update(conflict, { absentSince: now, updatedAt: now });
      return null;
    }
    const changes: FullAuditChanges = { ...(step.finding ? fresh(step.finding) : {}), state: step.state, absentSince: null, updatedAt: now };
    if (!(await this.conflicts.update(conflict, changes))) return null;
    await this.activity.record({ organizationId, instanceId, action: `full_audit_conflict.${step.event}`, subjectId: conflict.id, actor: null, before: { state: conflict.state }, after: { state: step.state } });
    return step.event;
  }
}
