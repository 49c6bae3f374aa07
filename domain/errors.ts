/**
 * The one error type a caller of the API sees. Every code is a row of the table in docs/api/errors.md; the error
 * middleware renders it as `{ error: { code, message, details?, requestId } }` and turns anything else into
 * `internal_error` or `unavailable`. Areas with error classes of their own translate them into this one where a
 * caller would see them.
 */
export const ERROR_STATUS = {
  invalid_json: 400,
  validation_error: 400,
  'webhook.url_not_public': 400,
  unauthorized: 401,
  'auth.invalid_credentials': 401,
  'billing.insufficient_credits': 402,
  'billing.spend_cap_exceeded': 402,
  forbidden: 403,
  'auth.email_verification_required': 403,
  not_found: 404,
  conflict: 409,
  'auth.email_taken': 409,
  'run.invalid_state': 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    /** Extra response headers (`Retry-After`, `WWW-Authenticate`, `Allow`). */
    readonly headers: Record<string, string> = {},
    status?: number,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status ?? ERROR_STATUS[code];
  }
}

export interface ValidationIssue {
  path: string;
  message: string;
}

export const errors = {
  invalidJson: () => new ApiError('invalid_json', 'Request body is not valid JSON'),
  validation: (issues: ValidationIssue[]) => new ApiError('validation_error', 'Request failed validation', { issues }),
  unauthorized: (message = 'Missing or invalid credentials') =>
    new ApiError('unauthorized', message, undefined, { 'WWW-Authenticate': 'Bearer' }),
  invalidCredentials: () => new ApiError('auth.invalid_credentials', 'Invalid e-mail or password'),
  forbidden: (message = 'Not allowed') => new ApiError('forbidden', message),
  notFound: (what = 'Resource') => new ApiError('not_found', `${what} not found`),
  /** Unknown method on a known path: 405 with `Allow`; there is no code of its own for it (docs/api/errors.md). */
  methodNotAllowed: (method: string, allowed: string[]) =>
    new ApiError('not_found', `Method ${method} is not allowed here`, { allowed }, { Allow: allowed.join(', ') }, 405),
  conflict: (message: string, details?: Record<string, unknown>) => new ApiError('conflict', message, details),
  emailTaken: () => new ApiError('auth.email_taken', 'An account with this e-mail already exists'),
  payloadTooLarge: (limitBytes: number) =>
    new ApiError('payload_too_large', `Body is larger than ${limitBytes} bytes`, { limitBytes }),
  unsupportedMediaType: (expected: string) => new ApiError('unsupported_media_type', `Expected a ${expected} body`),
  /** The message is exactly `Rate limit exceeded`, with `Retry-After` in whole seconds ≥ 1 (docs/api/limits.md). */
  rateLimited: (retryAfterSec: number) =>
    new ApiError('rate_limited', 'Rate limit exceeded', undefined, {
      'Retry-After': String(Math.max(1, Math.ceil(retryAfterSec))),
    }),
  internal: () => new ApiError('internal_error', 'Internal server error'),
  unavailable: (what: string, retryAfterSec = 5) =>
    new ApiError('unavailable', `${what} is unavailable, retry later`, undefined, {
      'Retry-After': String(retryAfterSec),
    }),
};
