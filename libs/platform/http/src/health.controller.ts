import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Public, RawResponse } from './operation.decorator';

/** One dependency the app needs to serve traffic (database, Redis). */
export abstract class ReadinessCheck {
  abstract readonly name: string;
  /** Resolves true when the dependency answers in time; never throws. */
  abstract check(): Promise<boolean>;
}

export const READINESS_CHECKS = Symbol('READINESS_CHECKS');

/** The readiness checks an app registered. */
export class ReadinessChecks {
  constructor(readonly all: ReadinessCheck[]) {}
}


@Controller('health')
@Public()
@RawResponse()
export class HealthController {
  constructor(private readonly checks: ReadinessChecks) {}

  /** The process is up and its event loop answers. */
  @Get('live')
  @HttpCode(200)
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** Every dependency answers: 200, else 503 naming the ones that do not. */
  @Get('ready')
  async ready(@Res({ passthrough: true }) res: Response): Promise<{ status: string; checks: Record<string, 'up' | 'down'> }> {
    const results = await Promise.all(this.checks.all.map(async (c) => [c.name, (await c.check()) ? 'up' : 'down'] as const));
    const checks = Object.fromEntries(results);
    const ok = results.every(([, state]) => state === 'up');
    res.status(ok ? 200 : 503);
    if (!ok) res.setHeader('Retry-After', '5');
    return { status: ok ? 'ok' : 'unavailable', checks };
  }
}

