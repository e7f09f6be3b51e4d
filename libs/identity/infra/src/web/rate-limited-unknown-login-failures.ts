import { Injectable } from '@nestjs/common';
import { UnknownLoginFailures } from '@svc/identity-core';
import { RateLimiter } from '@svc/http';

/** UnknownLoginFailures on the platform's rate limiter (shared through Redis when configured); stores only a hash of the e-mail. */
@Injectable()
export class RateLimitedUnknownLoginFailures extends UnknownLoginFailures {
  constructor(private readonly limiter: RateLimiter) {
    super();
  }

  async hit(email: string, limit: number, windowSeconds: number): Promise<{ refused: boolean; retryAfterSeconds: number }> {
    const decision = await this.limiter.hit('login.unknown-email', email, { limit, windowSeconds });
    return { refused: !decision.allowed, retryAfterSeconds: decision.retryAfterSeconds };
  }
}
