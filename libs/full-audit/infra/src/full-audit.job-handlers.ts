import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@svc/config';
import type { DocumentChangedPayload, FullAuditCollectPayload, FullAuditExtractPayload, FullAuditJudgePayload, FullAuditScanPayload } from '@svc/contracts';
import { CollectModelBatch, ExtractClaims, JudgeFullAudit, RescanChangedDocument, StartFullAuditScan, SweepFullAudit } from '@svc/full-audit-core';
import { JobHandlerOf, JobHandlerRegistry } from '@svc/jobs';
import { loggableError } from '@svc/kernel';

// The scan's jobs run outside a job transaction: reading claims is CPU work of seconds, and embedded
// mode has one connection. Each use case commits its writes in short transactions, idempotently.

/** `full-audit.scan`: starts a full scan (chunks queued). Outcome: `not_running`, `already_running <id>` or `started <id> <documents> <chunks>`. */
@Injectable()
export class FullAuditScanJobHandler extends JobHandlerOf<'full-audit.scan'> {
  readonly job = 'full-audit.scan';
  override readonly transactional = false;

  constructor(
    registry: JobHandlerRegistry,
    private readonly start: StartFullAuditScan,
  ) {
    super(registry);
  }

  handle(payload: FullAuditScanPayload): Promise<string> {
    return this.start.execute(payload);
  }
}

/** `full-audit.extract`: reads the claims of a chunk of documents. Outcome: `read <n> changed <m>`. */
@Injectable()
export class FullAuditExtractJobHandler extends JobHandlerOf<'full-audit.extract'> {
  readonly job = 'full-audit.extract';
  override readonly transactional = false;

  constructor(
    registry: JobHandlerRegistry,
    private readonly extract: ExtractClaims,
  ) {
    super(registry);
  }

  handle(payload: FullAuditExtractPayload): Promise<string> {
    return this.extract.execute(payload);
  }
}

/** `full-audit.judge`: judges the claims and records the findings' lifecycle. */
@Injectable()
export class FullAuditJudgeJobHandler extends JobHandlerOf<'full-audit.judge'> {
  readonly job = 'full-audit.judge';
  override readonly transactional = false;

  constructor(
    registry: JobHandlerRegistry,
    private readonly judge: JudgeFullAudit,
  ) {
    super(registry);
  }

  handle(payload: FullAuditJudgePayload): Promise<string> {
    return this.judge.execute(payload);
  }
}

/** `full-audit.collect`: applies the model's verdicts on a batch of candidates once it has ended. */
@Injectable()
export class FullAuditCollectJobHandler extends JobHandlerOf<'full-audit.collect'> {
  readonly job = 'full-audit.collect';
  override readonly transactional = false;

  constructor(
    registry: JobHandlerRegistry,
    private readonly collect: CollectModelBatch,
  ) {
    super(registry);
  }

  handle(payload: FullAuditCollectPayload): Promise<string> {
    return this.collect.execute(payload);
  }
}

/** `full-audit.document-changed`: rescans a changed document incrementally (or starts the first full scan). */
@Injectable()
export class FullAuditDocumentChangedJobHandler extends JobHandlerOf<'full-audit.document-changed'> {
  readonly job = 'full-audit.document-changed';
  override readonly transactional = false;

  constructor(
    registry: JobHandlerRegistry,
    private readonly rescan: RescanChangedDocument,
  ) {
    super(registry);
  }

  handle(payload: DocumentChangedPayload): Promise<string> {
    return this.rescan.execute(payload);
  }
}

/** Runs the sweep (due rescans, waiting judgements) every FULL_AUDIT_SWEEP_SECONDS in processes that run jobs. */
@Injectable()
export class FullAuditSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(FullAuditSweeper.name);
  private timer: NodeJS.Timeout | null = null;
  private running = false;

  constructor(
    private readonly sweep: SweepFullAudit,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.tick(), this.config.FULL_AUDIT_SWEEP_SECONDS * 1000);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async tick(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      const { judged, rescans, abandoned, polled, resumed } = await this.sweep.execute();
      if (judged + rescans + abandoned + polled + resumed > 0) this.logger.log({ judged, rescans, abandoned, polled, resumed }, 'full-audit sweep queued work');
    } catch (error) {
      this.logger.warn({ error: loggableError(error) }, 'full-audit sweep failed; the next one retries');
    } finally {
      this.running = false;
    }
  }
}
