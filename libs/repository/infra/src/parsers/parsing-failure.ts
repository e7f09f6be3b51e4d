import { DomainError } from '@svc/kernel';

const MAX_REASON_LENGTH = 300;

/** `REPOSITORY.PARSING_FAILED` with a short human reason; the library's error stays only as `cause`, for logs. */
export function parsingFailed(reason: string, cause?: unknown): DomainError {
  const oneLine = reason.replace(/\s+/g, ' ').trim();
  const message = oneLine.length > MAX_REASON_LENGTH ? `${oneLine.slice(0, MAX_REASON_LENGTH - 1)}…` : oneLine;
  return DomainError.invalid('REPOSITORY.PARSING_FAILED', message, cause === undefined ? undefined : { cause });
}

/** The first line of an error's message, without stack frames or file paths worth hiding. */
export function errorSummary(error: unknown): string {
  const raw = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  const firstLine = raw.split('\n')[0].trim();
  return firstLine.replace(/(?:\/[\w.-]+){2,}/g, '…').slice(0, 200);
}
