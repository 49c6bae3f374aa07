/**
 * Error classes. Every error the client raises is an {@link SvcError}; HTTP failures are mapped to one
 * subclass per family so callers can branch with `instanceof` or the static `is()` guard.
 */

/** Fields shared by every {@link SvcError}. */
export interface SvcErrorInit {
  code: string;
  message: string;
  status?: number;
  details?: unknown;
  requestId?: string;
  headers?: Headers;
  cause?: unknown;
}

/**
 * Base class of every error thrown by the client.
 *
 * `code`, `message`, `details` and `requestId` come from the service's error envelope
 * `{ error: { code, message, details?, requestId } }`; `requestId` falls back to the
 * `X-Request-Id` response header. `status` is the HTTP status, `undefined` when no response was received.
 */
export class SvcError extends Error {
  /** Machine-readable error code, e.g. `validation_error`, `run.invalid_state`. */
  readonly code: string;
  /** HTTP status of the response, or `undefined` for client-side failures (network, timeout). */
  readonly status: number | undefined;
  /** Extra structured information, e.g. `{ required, available }` for `billing.insufficient_credits`. */
  readonly details: unknown;
  /** Request id to quote when reporting a problem. */
  readonly requestId: string | undefined;
  /** Response headers, when there was a response. */
  readonly headers: Headers | undefined;

  constructor(init: SvcErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.code = init.code;
    this.status = init.status;
    this.details = init.details;
    this.requestId = init.requestId;
    this.headers = init.headers;
  }

  /**
   * Type guard usable on the base class and on every subclass: `NotFoundError.is(err)`.
   * Equivalent to `err instanceof ThisClass`.
   */
  static is<T extends abstract new (...args: never[]) => SvcError>(this: T, value: unknown): value is InstanceType<T> {
    return value instanceof this;
  }
}

/** 400, 413, 415: the request body or query was rejected (`validation_error`, `invalid_json`, ...). */
export class ValidationError extends SvcError {}
/** 401: missing, unknown or revoked credential. */
export class AuthenticationError extends SvcError {}
/** 402: insufficient credits or spend cap reached (`details` says which limit). */
export class BillingError extends SvcError {}
/** 403: the credential lacks the scope or role for this action. */
export class PermissionError extends SvcError {}
/** 404: unknown id (or an id of another workspace). */
export class NotFoundError extends SvcError {}
/** 409: conflict, e.g. `run.invalid_state` or an idempotency key reused with a different body. */
export class ConflictError extends SvcError {}

/** 429: rate limited. Raised once the automatic retries are used up. */
export class RateLimitError extends SvcError {
  /** Seconds the service asked to wait (`Retry-After`), when it said. */
  readonly retryAfter: number | undefined;

  constructor(init: SvcErrorInit & { retryAfter?: number }) {
    super(init);
    this.retryAfter = init.retryAfter;
  }
}

/** 5xx: the service failed. Raised once the automatic retries are used up. */
export class ServerError extends SvcError {}

/** No response was received: network failure, DNS error, refused connection or per-request timeout. */
export class ConnectionError extends SvcError {}

/** `runs.wait()` gave up because the run did not reach a terminal status within `timeoutMs`. */
export class TimeoutError extends SvcError {
  /** The run that was being waited for. */
  readonly runId: string;
  /** The last status seen before giving up, when any was seen. */
  readonly lastStatus: string | undefined;

  constructor(init: SvcErrorInit & { runId: string; lastStatus?: string }) {
    super(init);
    this.runId = init.runId;
    this.lastStatus = init.lastStatus;
  }
}

interface Envelope {
  error?: { code?: unknown; message?: unknown; details?: unknown; requestId?: unknown };
}

/**
 * Builds the error for a non-2xx response. `body` is the raw response text; a body that is not the
 * JSON envelope (e.g. an HTML page from a proxy) still yields an error of the right family.
 */
export function errorFromResponse(status: number, headers: Headers, body: string, retryAfter?: number): SvcError {
  let envelope: Envelope['error'];
  try {
    const parsed = JSON.parse(body) as Envelope;
    if (parsed && typeof parsed === 'object' && parsed.error && typeof parsed.error === 'object')
      envelope = parsed.error;
  } catch {
    envelope = undefined;
  }
  const init: SvcErrorInit = {
    status,
    headers,
    code: typeof envelope?.code === 'string' ? envelope.code : `http_${status}`,
    message:
      typeof envelope?.message === 'string'
        ? envelope.message
        : `HTTP ${status}${body ? `: ${body.slice(0, 200)}` : ''}`,
    details: envelope?.details,
    requestId:
      typeof envelope?.requestId === 'string' ? envelope.requestId : (headers.get('x-request-id') ?? undefined),
  };
  switch (status) {
    case 400:
    case 413:
    case 415:
      return new ValidationError(init);
    case 401:
      return new AuthenticationError(init);
    case 402:
      return new BillingError(init);
    case 403:
      return new PermissionError(init);
    case 404:
      return new NotFoundError(init);
    case 409:
      return new ConflictError(init);
    case 429:
      return new RateLimitError({ ...init, retryAfter });
  }
  return status >= 500 ? new ServerError(init) : new SvcError(init);
}
