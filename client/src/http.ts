/**
 * Transport: one JSON request with authentication, a per-attempt timeout and automatic retries.
 * Retry timing follows openai-node: prefer the server's `Retry-After`, else exponential backoff with jitter.
 * Which failures are retried depends on whether repeating the request is safe (see {@link shouldRetry}).
 */
import { ConnectionError, SvcError, errorFromResponse } from './errors.js';
import { randomUUID, sleep } from './runtime.js';

/** The `fetch` signature the client needs; `globalThis.fetch` and most polyfills match it. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/** Query-string values; `undefined` and `null` entries are left out. */
export type Query = Record<string, string | number | boolean | undefined | null>;

/** Per-call options accepted by every resource method as its last argument. */
export interface CallOptions {
  /** Abort the call (including any retry wait). */
  signal?: AbortSignal;
  /** Overrides the client's `timeoutMs` for each attempt of this call. */
  timeoutMs?: number;
  /** Overrides the client's `maxRetries` for this call. */
  maxRetries?: number;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /**
   * `Idempotency-Key` header of a POST: the same key and request within 24 h get the first answer again
   * without acting twice. Every POST generates one per call when absent and sends it on every retry.
   */
  idempotencyKey?: string;
}

/** A request as the resources describe it. */
export interface RequestSpec extends CallOptions {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Query;
  /** JSON body (serialised here). */
  json?: unknown;
  /** Raw body sent as-is (uploads); give its `Content-Type` in `headers`. */
  body?: Uint8Array | ArrayBuffer | Blob | string;
  /**
   * Whether sending the request twice has the effect of sending it once. Default: `true` for GET,
   * DELETE and POST (the service deduplicates every POST by its `Idempotency-Key`, generated per call
   * when `idempotencyKey` is absent), `false` for PUT and PATCH. An idempotent request is retried on 429,
   * every 5xx and network errors; any other only when the service cannot have processed it (429, 503,
   * connection refused).
   */
  idempotent?: boolean;
}

/** Settings of the transport, resolved by the `Svc` constructor. */
export interface HttpSettings {
  apiKey: string;
  baseUrl: string;
  fetch: FetchLike;
  maxRetries: number;
  timeoutMs: number;
}

/** Longest `Retry-After` the client will sleep through; a longer one is surfaced as the error instead. */
export const MAX_RETRY_AFTER_SECONDS = 60;
const BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 8000;

/** True for the statuses that are worth retrying: 429 and every 5xx. Other 4xx never are. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/**
 * Whether a failed attempt may be repeated. Idempotent requests (GET, DELETE, and every POST, which
 * carries an `Idempotency-Key`): 429, any 5xx, any network failure. Others (PUT, PATCH: an agent update
 * makes a version each time): only when the service says it did not act on the request (429
 * `rate_limited`, 503 `unavailable`) or the connection never opened, because after a 500, a reset or a
 * timeout the first attempt may have succeeded, and a repeat would duplicate it.
 */
export function shouldRetry(idempotent: boolean, failure: { status: number } | { notSent: boolean }): boolean {
  if ('status' in failure) return idempotent ? isRetryableStatus(failure.status) : [429, 503].includes(failure.status);
  return idempotent || failure.notSent;
}

/**
 * True for the 409 that says the request's `Idempotency-Key` is held by an earlier attempt still running (or one
 * whose process died, until the service takes its claim back): safe to repeat with the same key, after
 * `Retry-After` (docs/api/limits.md#idempotency).
 */
export function isKeyInProgress(status: number, text: string): boolean {
  if (status !== 409) return false;
  try {
    return (
      (JSON.parse(text) as { error?: { details?: { reason?: unknown } } }).error?.details?.reason === 'in_progress'
    );
  } catch {
    return false;
  }
}

/** Error codes (Node/undici) of failures that happen before any byte of the request is sent. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * True when a `fetch` failure certainly happened before the request was sent: the connection was refused,
 * the name did not resolve, or connecting timed out. Node's `fetch` puts the code on `cause` (an
 * `AggregateError` when several addresses were tried). Browsers give no such detail, so there a network
 * failure counts as "maybe sent".
 */
export function failedBeforeSending(error: unknown, depth = 0): boolean {
  if (depth > 4 || typeof error !== 'object' || error === null) return false;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string' && NOT_SENT_CODES.has(code)) return true;
  if (Array.isArray(errors) && errors.length > 0) return errors.every((e) => failedBeforeSending(e, depth + 1));
  return failedBeforeSending(cause, depth + 1);
}

/**
 * Parses `Retry-After` (delta-seconds or an HTTP date) into seconds, or `undefined` when absent or invalid.
 */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds : undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}

/** Backoff before retry number `retry` (0-based): 0.5 s · 2^retry, ±25 % jitter, at most 8 s. */
export function backoffMs(retry: number): number {
  const base = Math.min(BASE_DELAY_MS * 2 ** retry, MAX_DELAY_MS);
  return Math.min(base * (0.75 + Math.random() * 0.5), MAX_DELAY_MS);
}

/** Builds `baseUrl + path + ?query`. */
export function buildUrl(baseUrl: string, path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const qs = params.toString();
  return `${baseUrl}${path}${qs ? `?${qs}` : ''}`;
}

/** The transport shared by every resource of one client. */
export class HttpClient {
  constructor(readonly settings: HttpSettings) {}

  /**
   * Sends the request, retrying the failures {@link shouldRetry} allows, and returns the parsed JSON body
   * (`undefined` for an empty body such as 204).
   * @throws {SvcError} a subclass matching the final HTTP status, or {@link ConnectionError} when no
   * response arrived on the last attempt.
   */
  async request<T>(spec: RequestSpec): Promise<T> {
    const { response, text } = await this.send(spec, true);
    if (!text) return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch (cause) {
      throw new SvcError({
        code: 'invalid_response',
        message: `Response to ${spec.method} ${spec.path} is not valid JSON`,
        status: response.status,
        headers: response.headers,
        requestId: response.headers.get('x-request-id') ?? undefined,
        cause,
      });
    }
  }

  /**
   * Like {@link request} but returns the successful `Response` with its body unread (streams, downloads).
   * The per-attempt timeout covers only the wait for the response headers; use `signal` to stop reading.
   */
  async raw(spec: RequestSpec): Promise<Response> {
    return (await this.send(spec, false)).response;
  }

  private async send(spec: RequestSpec, readBody: boolean): Promise<{ response: Response; text: string }> {
    const maxRetries = spec.maxRetries ?? this.settings.maxRetries;
    const idempotent = spec.idempotent ?? ['GET', 'DELETE', 'POST'].includes(spec.method);
    const headers = await this.headersFor(spec, idempotent);
    const url = buildUrl(this.settings.baseUrl, spec.path, spec.query);
    const body = (spec.json !== undefined ? JSON.stringify(spec.json) : spec.body) as RequestInit['body'];
    for (let retry = 0; ; retry++) {
      const attempt = await this.attempt(url, { method: spec.method, headers, body }, spec, readBody);
      const canRetry = retry < maxRetries && !spec.signal?.aborted;
      if ('error' in attempt) {
        if (!canRetry || !shouldRetry(idempotent, { notSent: attempt.notSent })) throw attempt.error;
        await sleep(backoffMs(retry), spec.signal);
        continue;
      }
      const { response, text } = attempt;
      if (response.ok) return attempt;
      const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
      // the service asks callers to wait at least Retry-After; one longer than we are willing to sleep ends the retries
      const retryAfterOk = retryAfter === undefined || retryAfter <= MAX_RETRY_AFTER_SECONDS;
      const repeatable =
        shouldRetry(idempotent, { status: response.status }) ||
        (idempotent && headers['idempotency-key'] !== undefined && isKeyInProgress(response.status, text));
      if (!canRetry || !repeatable || !retryAfterOk) {
        throw errorFromResponse(response.status, response.headers, text, retryAfter);
      }
      await sleep(retryAfter !== undefined ? Math.ceil(retryAfter * 1000) : backoffMs(retry), spec.signal);
    }
  }

  private async headersFor(spec: RequestSpec, idempotent: boolean): Promise<Record<string, string>> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization: `Bearer ${this.settings.apiKey}`,
    };
    if (spec.json !== undefined) headers['content-type'] = 'application/json';
    for (const [name, value] of Object.entries(spec.headers ?? {})) headers[name.toLowerCase()] = value;
    // stripe-node habit: a POST carries one key, generated once per call and reused by every retry, so a
    // retry after a lost answer replays it instead of acting again
    const key = spec.idempotencyKey ?? headers['idempotency-key'];
    if (key !== undefined) headers['idempotency-key'] = key;
    else if (spec.method === 'POST' && idempotent) headers['idempotency-key'] = await randomUUID();
    return headers;
  }

  /**
   * One attempt: a response (with its text when `readBody`), or the error to raise if it is the last, with
   * whether the request certainly never reached the service.
   */
  private async attempt(
    url: string,
    init: RequestInit,
    spec: RequestSpec,
    readBody: boolean,
  ): Promise<{ response: Response; text: string } | { error: SvcError; notSent: boolean }> {
    const timeoutMs = spec.timeoutMs ?? this.settings.timeoutMs;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = () => controller.abort(spec.signal?.reason);
    if (spec.signal?.aborted) onAbort();
    spec.signal?.addEventListener('abort', onAbort, { once: true });
    let streaming = false;
    try {
      const fetchFn = this.settings.fetch;
      const response = await fetchFn(url, { ...init, signal: controller.signal });
      // error bodies are always read (small); success bodies only when the caller wants them parsed
      const text = readBody || !response.ok ? await response.text() : '';
      // an unread success body stays tied to the caller's signal so aborting it stops the stream
      streaming = !readBody && response.ok;
      return { response, text };
    } catch (cause) {
      // a caller abort is final: surface the caller's reason untouched, never retry it
      if (spec.signal?.aborted && !timedOut) throw spec.signal.reason ?? cause;
      const message = timedOut
        ? `${init.method} ${url} timed out after ${timeoutMs} ms`
        : `${init.method} ${url} failed: ${cause instanceof Error ? cause.message : String(cause)}`;
      return {
        error: new ConnectionError({ code: timedOut ? 'timeout' : 'connection_error', message, cause }),
        notSent: !timedOut && failedBeforeSending(cause),
      };
    } finally {
      clearTimeout(timer);
      if (!streaming) spec.signal?.removeEventListener('abort', onAbort);
    }
  }
}
