import { createHmac, timingSafeEqual } from 'node:crypto';
import { InstanceKeyHasher } from '@svc/repository-core';

/** HMAC-SHA-256 with a pepper derived from AUTH_SECRET for this purpose only. */
export class HmacInstanceKeyHasher extends InstanceKeyHasher {
  constructor(private readonly pepper: Buffer) {
    super();
  }
  hash(secret: string): string {
    return createHmac('sha256', this.pepper).update(secret, 'utf8').digest('base64url');
  }
  matches(secret: string, hash: string): boolean {
    const a = Buffer.from(this.hash(secret));
    const b = Buffer.from(hash);
    return a.length === b.length && timingSafeEqual(a, b);
  }
}
