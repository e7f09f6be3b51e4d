/** The error body every app answers with (libs/platform/http/src/error-body.ts). */
export interface ErrorBody {
  detail: string;
  code: string;
  status: number;
  hint?: string;
  request_id: string;
  errors?: Array<{ field?: string; message?: string }>;
}

/** A refused or failed API call, as the service explained it. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly hint: string | undefined;
  readonly requestId: string | undefined;
  readonly fieldErrors: Array<{ field?: string; message?: string }>;

  constructor(body: Partial<ErrorBody> & { status: number }) {
    super(body.detail ?? `The service answered ${body.status}.`);
    this.name = 'ApiError';
    this.status = body.status;
    this.code = body.code ?? (body.status === 0 ? 'NETWORK.UNREACHABLE' : 'HTTP.UNEXPECTED');
    this.hint = body.hint;
    this.requestId = body.request_id;
    this.fieldErrors = body.errors ?? [];
  }
}

/** An error body read from anything a call may have produced. */
export function toApiError(error: unknown, status: number): ApiError {
  if (error instanceof ApiError) return error;
  if (error && typeof error === 'object' && 'code' in error) return new ApiError({ ...(error as Partial<ErrorBody>), status });
  return new ApiError({ status, detail: error instanceof Error ? error.message : undefined });
}
