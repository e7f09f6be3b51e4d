/**
 * Readers for settings that platform modules take from the configuration object, whether it came
 * from the validated schema (typed) or was built by hand in a test (raw strings). Problems are
 * collected as "NAME: reason" lines for one ConfigError naming every variable.
 */
export function textSetting(raw: Record<string, unknown>, name: string): string | undefined {
  const value = raw[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

export function integerSetting(raw: Record<string, unknown>, name: string, min: number, max: number, problems: string[]): number | undefined {
  const value = raw[name];
  if (value === undefined || value === '') return undefined;
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < min || n > max) {
    problems.push(`${name}: must be a whole number between ${min} and ${max}`);
    return undefined;
  }
  return n;
}

export function flagSetting(raw: Record<string, unknown>, name: string, problems: string[]): boolean | undefined {
  const value = raw[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && ['true', '1', 'yes'].includes(value)) return true;
  if (typeof value === 'string' && ['false', '0', 'no'].includes(value)) return false;
  problems.push(`${name}: must be true or false`);
  return undefined;
}

/** An http(s) URL; with `allowCredentials` false, also without user or password in it. */
export function isHttpUrl(value: string, allowCredentials = true): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && (allowCredentials || (!url.username && !url.password));
  } catch {
    return false;
  }
}
