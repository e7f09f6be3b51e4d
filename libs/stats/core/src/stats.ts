import { DomainError } from '@svc/kernel';

/** The filtered stats record (interface spec, part 2; BEHAVIOUR.md §9). */
export interface FilteredStats {
  total_questions: number;
  questions_with_conflicts_to_manage: number;
  questions_with_conflicts_analyzed: number;
  managed_questions: number;
  questions_without_conflicts: number;
  missing_subjects_count: number;
  total_conflicts: number;
  managed_important_conflicts: number;
  documents_to_update_count: number;
  total_documents: number;
  documents_with_unmanaged_conflicts: number;
  estimated_total_update_time: number;
  questions_not_analyzed_yet: number;
}

/** What people did on a day, counted from the activity log (BEHAVIOUR.md §9). */
export const DAILY_COUNTERS = [
  'conflicts_detected',
  'conflicts_answered',
  'conflicts_managed',
  'conflicts_ignored',
  'full_audit_managed',
  'full_audit_ignored',
  'questions_created',
  'questions_managed',
  'missing_subjects_managed',
  'duplicates_managed',
] as const;
export type DailyCounter = (typeof DAILY_COUNTERS)[number];
export type DailyCounters = Record<DailyCounter, number>;
export type DailyStatsRow = { date: string } & DailyCounters;
export type UserStats = { user_id: string; begin_date: string; end_date: string } & DailyCounters;

/** The counters of one dashboard entry (BEHAVIOUR.md §9). */
export interface DashboardCounters {
  unresolved_question_conflicts: number;
  unresolved_full_audit_conflicts: number;
  pending_mandatory_questions: number;
  pending_missing_subjects: number;
  pending_duplicate_clusters: number;
}
export type DashboardEntry = { instance_id: string; name: string; step: string } & DashboardCounters;

/** `all`, or the only documents the caller may see (the owner-visibility rule, BEHAVIOUR.md §3). */
export type VisibleDocuments = 'all' | string[];

/** Longest range of the daily and per-user stats: one year and a day, so any calendar year fits. */
export const MAX_RANGE_DAYS = 366;

/** An inclusive range of whole UTC days. */
export interface DayRange {
  first: string;
  last: string;
  from: Date;
  /** The instant after the last day. */
  toExclusive: Date;
  /** Every day of the range, oldest first (YYYY-MM-DD). */
  days: string[];
}

const DAY_MS = 86_400_000;

function parseDay(value: string, field: string): Date {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const date = match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : null;
  if (!match || !date || date.toISOString().slice(0, 10) !== value) {
    throw DomainError.invalid('REQUEST.INVALID_DATE', `${field} must be a calendar date written YYYY-MM-DD (a whole UTC day), not ${JSON.stringify(value)}.`, {
      errors: [{ field, message: `${field} must be a calendar date YYYY-MM-DD` }],
    });
  }
  return date;
}

/** `begin_date` .. `end_date`, both included; 400 when unreadable, reversed or longer than MAX_RANGE_DAYS. */
export function dayRange(begin: string, end: string): DayRange {
  const from = parseDay(begin, 'begin_date');
  const last = parseDay(end, 'end_date');
  if (last < from) {
    throw DomainError.invalid('REQUEST.EMPTY_RANGE', `end_date ${end} is before begin_date ${begin}.`, { errors: [{ field: 'end_date', message: 'end_date must not be before begin_date' }] });
  }
  const count = Math.round((last.getTime() - from.getTime()) / DAY_MS) + 1;
  if (count > MAX_RANGE_DAYS) {
    throw DomainError.invalid('STATS.RANGE_TOO_LONG', `The range covers ${count} days; at most ${MAX_RANGE_DAYS} are counted at once.`, {
      errors: [{ field: 'end_date', message: `at most ${MAX_RANGE_DAYS} days after begin_date` }],
      hint: 'Ask for the range in parts of a year or less.',
    });
  }
  const days = Array.from({ length: count }, (_, i) => new Date(from.getTime() + i * DAY_MS).toISOString().slice(0, 10));
  return { first: begin, last: end, from, toExclusive: new Date(last.getTime() + DAY_MS), days };
}

export function zeroCounters(): DailyCounters {
  return Object.fromEntries(DAILY_COUNTERS.map((k) => [k, 0])) as DailyCounters;
}

/** One row per day of the range, oldest first, days without activity at zero. */
export function fillDays(range: DayRange, counted: Map<string, Partial<DailyCounters>>): DailyStatsRow[] {
  return range.days.map((date) => ({ date, ...zeroCounters(), ...(counted.get(date) ?? {}) }));
}

/** The counters summed over days. */
export function sumDays(rows: readonly DailyCounters[]): DailyCounters {
  const total = zeroCounters();
  for (const row of rows) for (const k of DAILY_COUNTERS) total[k] += row[k];
  return total;
}
