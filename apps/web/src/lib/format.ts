/** Dates and durations in the reader's language. */
export function formatDate(value: string | null | undefined, language: string): string {
  if (!value) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

export function formatDay(value: string | null | undefined, language: string): string {
  if (!value) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : new Intl.DateTimeFormat(language, { dateStyle: 'medium' }).format(date);
}

/** "3 min", "1 h 20 min": an estimated time of work. */
export function formatDuration(seconds: number, language: string): string {
  const minutes = Math.max(1, Math.round(seconds / 60));
  const unit = (value: number, u: 'hour' | 'minute') => new Intl.NumberFormat(language, { style: 'unit', unit: u, unitDisplay: 'short' }).format(value);
  if (minutes < 60) return unit(minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? unit(hours, 'hour') : `${unit(hours, 'hour')} ${unit(rest, 'minute')}`;
}
