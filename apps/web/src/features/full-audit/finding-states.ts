import type { AuditResult } from '@/lib/api-client';
import { allOf } from '@/lib/exhaustive';

export type Finding = AuditResult<'/audit/full-audit/detail'>;
export type FindingState = Finding['state'];
export type FindingExcerpt = Finding['excerpts'][number];
export type ScanStatus = AuditResult<'/audit/full-audit/have-to-show'>;

export const FINDING_STATES = allOf<FindingState>()(['DETECTED', 'REDETECTED', 'MANAGED', 'IGNORED', 'DISAPPEARED']);
export const UNRESOLVED_FINDING_STATES: readonly FindingState[] = ['DETECTED', 'REDETECTED'];
export const FINDING_FILTERS = ['unresolved', ...FINDING_STATES, 'all'] as const;
export type FindingFilter = (typeof FINDING_FILTERS)[number];

export function findingStatesOf(filter: FindingFilter): FindingState[] {
  if (filter === 'unresolved') return [...UNRESOLVED_FINDING_STATES];
  if (filter === 'all') return [...FINDING_STATES];
  return [filter];
}

/** The attribute of a superseded version's finding (an older version still in the repository, ADR 0049): a kind, not the disagreeing attribute's words. */
export const SUPERSEDED_ATTRIBUTE = 'superseded';
export const isSuperseded = (finding: Pick<Finding, 'attribute'>): boolean => finding.attribute === SUPERSEDED_ATTRIBUTE;

/** Statements grouped by the value they give, in the order the finding lists them (a finding may hold more than two documents). */
export function groupByValue(excerpts: readonly FindingExcerpt[]): Array<{ value: string; excerpts: FindingExcerpt[] }> {
  const groups = new Map<string, FindingExcerpt[]>();
  for (const excerpt of excerpts) {
    const key = excerpt.value.trim().toLowerCase();
    groups.set(key, [...(groups.get(key) ?? []), excerpt]);
  }
  return [...groups.values()].map((group) => ({ value: group[0]?.value ?? '', excerpts: group }));
}
