/** What went wrong, independent of transport. HTTP, MCP and workers each map a kind once. */
export type DomainErrorKind =
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'too_large'
  | 'rate_limited'
  | 'unavailable'
  | 'method_not_allowed'
  /** The body is not in a format the operation reads (415). */
  | 'unsupported_media_type'
  /** A bug on our side: logged with details, answered with a generic 500. */
  | 'internal';

export interface FieldError {
  field: string;
  message: string;
}

export interface DomainErrorOptions {
  hint?: string;
  errors?: FieldError[];
  /** Seconds a client should wait before retrying (`unavailable`, `rate_limited`). */
  retryAfterSeconds?: number;
  cause?: unknown;
}

/**
 * The one error type use cases throw. `code` is stable (`CONTEXT.REASON`) and meant for programs;
 * `message` is a human sentence meant for people and never contains secrets or internals.
 */
export class DomainError extends Error {
  readonly hint?: string;
  readonly errors?: FieldError[];
  readonly retryAfterSeconds?: number;

  constructor(
    readonly kind: DomainErrorKind,
    readonly code: string,
    message: string,
    options: DomainErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DomainError';
    this.hint = options.hint;
    this.errors = options.errors;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  static invalid(code: string, message: string, options?: DomainErrorOptions): DomainError {
    return new DomainError('invalid', code, message, options);
  }
  static notFound(code: string, message: string, options?: DomainErrorOptions): DomainError {
    return new DomainError('not_found', code, message, options);
  }
  static forbidden(code: string, message: string, options?: DomainErrorOptions): DomainError {
    return new DomainError('forbidden', code, message, options);
  }
  static conflict(code: string, message: string, options?: DomainErrorOptions): DomainError {
    return new DomainError('conflict', code, message, options);
  }
  static unauthenticated(code: string, message: string, options?: DomainErrorOptions): DomainError {
    return new DomainError('unauthenticated', code, message, options);
  }
  static unavailable(code: string, message: string, options?: DomainErrorOptions): DomainError {
    return new DomainError('unavailable', code, message, { retryAfterSeconds: 5, ...options });
  }
}

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}
