import { randomBytes } from 'node:crypto';

/**
 * Organisation API keys: `svc_org_` + 16-char lookup id + 32-char secret + 6-char checksum, all
 * base62. The lookup id finds the stored record without revealing anything; the secret carries
 * ~190 bits of CSPRNG randomness; the CRC32 checksum rejects a mistyped or truncated key before
 * any database query.
 */
export const ORG_KEY_PREFIX = 'svc_org_';
const LOOKUP_LENGTH = 16;
const SECRET_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const BODY_LENGTH = LOOKUP_LENGTH + SECRET_LENGTH;
export const ORG_KEY_LENGTH = ORG_KEY_PREFIX.length + BODY_LENGTH + CHECKSUM_LENGTH;

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BASE62 = /^[0-9A-Za-z]+$/;

export interface ParsedApiKey {
  lookupId: string;
  raw: string;
}

export function generateApiKey(prefix = ORG_KEY_PREFIX): string {
  const body = randomBase62(BODY_LENGTH);
  return `${prefix}${body}${checksum(prefix + body)}`;
}

/** The parsed key when it is well formed and its checksum matches, else null. Never throws. */
export function parseApiKey(value: string, prefix = ORG_KEY_PREFIX): ParsedApiKey | null {
  if (typeof value !== 'string' || value.length !== prefix.length + BODY_LENGTH + CHECKSUM_LENGTH) return null;
  if (!value.startsWith(prefix)) return null;
  const rest = value.slice(prefix.length);
  if (!BASE62.test(rest)) return null;
  const body = rest.slice(0, BODY_LENGTH);
  if (checksum(prefix + body) !== rest.slice(BODY_LENGTH)) return null;
  return { lookupId: body.slice(0, LOOKUP_LENGTH), raw: value };
}

function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // Rejection sampling keeps every character equally likely (248 = 4 * 62).
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

function checksum(text: string): string {
  let value = crc32(Buffer.from(text, 'utf8'));
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = ALPHABET[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

export function crc32(data: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
