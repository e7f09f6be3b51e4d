/**
 * The wait an HTTP `Retry-After` header asks for, in whole seconds within 1..`maxSeconds`: it may
 * be a number of seconds or an HTTP date. undefined when absent or unreadable.
 */
export function retryAfterSeconds(header: string | null | undefined, maxSeconds = 3600): number | undefined {
  if (!header) return undefined;
  let seconds: number;
  if (/^\s*\d+(\.\d+)?\s*$/.test(header)) seconds = Number(header);
  else if (!Number.isNaN(Date.parse(header))) seconds = (Date.parse(header) - Date.now()) / 1000;
  else return undefined;
  return Math.min(maxSeconds, Math.max(1, Math.ceil(seconds)));
}
