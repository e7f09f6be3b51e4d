import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

/**
 * A fresh token per claim, stored in `locked_by`: readable (host and pid, for operators) and unique
 * (so a worker's second claim of the same job is told apart from its first).
 */
export function newLockToken(): string {
  return `${hostname()}/${process.pid}/${randomBytes(6).toString('hex')}`;
}
