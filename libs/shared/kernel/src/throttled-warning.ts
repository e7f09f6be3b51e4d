/** A warning logged at most once per interval, so an outage is reported without flooding the log. */
export class ThrottledWarning {
  private lastAt = Number.NEGATIVE_INFINITY;
  private suppressed = 0;

  constructor(
    private readonly logger: { warn(message: string): unknown },
    private readonly intervalMs = 30_000,
  ) {}

  warn(message: string): void {
    const now = Date.now();
    if (now - this.lastAt < this.intervalMs) {
      this.suppressed += 1;
      return;
    }
    const suffix = this.suppressed > 0 ? ` (${this.suppressed} similar warnings suppressed)` : '';
    this.lastAt = now;
    this.suppressed = 0;
    this.logger.warn(`${message}${suffix}`);
  }
}
