import { DomainError, DomainErrorKind, FieldError } from '@svc/kernel';

/** The error body of BEHAVIOUR.md §1 (RFC 9457-compatible members). */
export interface ErrorBody {
  detail: string;
  code: string;
  status: number;
  errors?: FieldError[];
  hint?: string;
  request_id: string;
}

export const STATUS_BY_KIND: Record<DomainErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  rate_limited: 429,
  unavailable: 503,
  method_not_allowed: 405,
  unsupported_media_type: 415,
  internal: 500,
};

export function errorBody(error: DomainError, requestId: string): ErrorBody {
  return {
    detail: error.message,
    code: error.code,
    status: STATUS_BY_KIND[error.kind],
    ...(error.errors?.length ? { errors: error.errors } : {}),
    ...(error.hint ? { hint: error.hint } : {}),
    request_id: requestId,
  };
}
