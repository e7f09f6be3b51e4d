import { randomBytes } from 'node:crypto';

export const INSTANCE_KEY_PREFIX = 'svc_ins_';
const LOOKUP_LENGTH = 16;
/** Prefix, 96-bit lookup id, 256-bit secret; all base64url. */
const KEY_SHAPE = /^svc_ins_[A-Za-z0-9_-]{16}[A-Za-z0-9_-]{43}$/;

/** A new raw instance API key and its non-secret lookup id (the part stored in clear). */
export function generateInstanceKey(): { apiKey: string; lookupId: string } {
  const lookupId = randomBytes(12).toString('base64url');
  return { apiKey: `${INSTANCE_KEY_PREFIX}${lookupId}${randomBytes(32).toString('base64url')}`, lookupId };
}

/** The lookup id of a well-formed raw key; null for anything else, so it never reaches the store. */
export function instanceKeyLookupId(raw: string): string | null {
  if (!KEY_SHAPE.test(raw)) return null;
  return raw.slice(INSTANCE_KEY_PREFIX.length, INSTANCE_KEY_PREFIX.length + LOOKUP_LENGTH);
}
