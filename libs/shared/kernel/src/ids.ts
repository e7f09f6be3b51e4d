import { monotonicFactory } from 'ulid';

/** Every id the service hands out is `<prefix><26-char ULID>`; the prefix names the resource kind. */
export const ID_PREFIXES = {
  instance: 'ki_',
  document: 'kd_',
  semanticNode: 'kn_',
  /** One attempt at indexing a document version: keys the nodes it stages (never shown to clients). */
  indexationAttempt: 'kx_',
  mandatoryQuestion: 'mq_',
  questionConflict: 'qc_',
  fullAuditConflict: 'fc_',
  fullAuditScan: 'fas_',
  missingSubject: 'ms_',
  missingSubjectQuestion: 'msq_',
  duplicateCluster: 'dup_',
  recommendation: 'rec_',
  organization: 'org_',
  user: 'usr_',
  apiKey: 'key_',
  loggedSearch: 'sl_',
  job: 'job_',
  activity: 'act_',
  session: 'ses_',
  oauthGrant: 'grt_',
  oauthConsent: 'cns_',
} as const;

export type IdPrefix = (typeof ID_PREFIXES)[keyof typeof ID_PREFIXES];

const ULID_PATTERN = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const nextUlid = monotonicFactory();

export function newId(prefix: IdPrefix): string {
  return `${prefix}${nextUlid()}`;
}

/** True when `value` is `prefix` followed by a well-formed ULID. */
export function isId(prefix: IdPrefix, value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(prefix) && ULID_PATTERN.test(value.slice(prefix.length));
}

/** The prefix a string claims to have (longest match), or undefined. Used for wrong-namespace hints. */
export function prefixOf(value: string): IdPrefix | undefined {
  const all = Object.values(ID_PREFIXES).sort((a, b) => b.length - a.length);
  return all.find((p) => value.startsWith(p));
}

/** Abstract so tests can swap in a deterministic generator; the class is its own DI token. */
export abstract class IdGenerator {
  abstract next(prefix: IdPrefix): string;
}

export class UlidIdGenerator extends IdGenerator {
  next(prefix: IdPrefix): string {
    return newId(prefix);
  }
}
