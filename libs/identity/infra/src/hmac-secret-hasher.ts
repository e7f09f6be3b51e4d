import { createHmac, timingSafeEqual } from 'node:crypto';
import { SecretHasher } from '@svc/identity-core';

/** HMAC-SHA-256 with the server pepper: a stolen table of hashes is useless without AUTH_SECRET. */
export class HmacSecretHasher extends SecretHasher {
  constructor(private readonly pepper: Buffer) {
    super();
  }

  hash(secret: string): string {
    return createHmac('sha256', this.pepper).update(secret, 'utf8').digest('base64url');
  }

  matches(secret: string, hash: string): boolean {
    const expected = Buffer.from(this.hash(secret), 'utf8');
    const actual = Buffer.from(hash, 'utf8');
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  }
}
