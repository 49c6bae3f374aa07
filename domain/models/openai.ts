import { estimateTokens } from './builtin';
import { mapMessages, mapTools, parseCompletion } from './openaiFormat';
import { ModelError, type ModelInfo, type ModelProvider, type TurnRequest, type TurnResult } from './types';

/** Model ids of this provider are `openai/<name>` (CONTRACT §4). */
export const OPENAI_PREFIX = 'openai/';

/** Settings of {@link createOpenAIProvider}; the first six mirror `config.openai`. */
export interface OpenAIProviderOptions {
  baseUrl: string;
  apiKey?: string;
  models: string[];
  inputPerMTokUsd: number;
  outputPerMTokUsd: number;
  /** Limit of one HTTP attempt, body included. */
  timeoutMs: number;
  /** Attempts in total, the first included (default 3). */
  maxAttempts?: number;
  /** Backoff before retry n (0-based) is `baseDelayMs · 2^n` plus jitter (default 500). */
  baseDelayMs?: number;
  /** Cap on any single wait, `Retry-After` included (default 30 s, well inside the activity's 10 min). */
  maxDelayMs?: number;
  /** Injectable for tests (STYLE: openai-node). */
  fetch?: typeof fetch;
}

/** Why an attempt failed, and whether another attempt may help. */
interface AttemptFailure {
  error: ModelError;
  retryAfterMs?: number;
}

/**
 * An OpenAI-compatible chat-completions provider (CONTRACT §4 "Real models"). Each `turn` is one
 * POST to `${baseUrl}/chat/completions`, retried here on 429, 5xx, timeouts and network errors
 * (the activity's own retries then only see what this gives up on). Other 4xx are final:
 * `ModelError` with `retryable: false`. The API key never appears in an error message.
 */
export function createOpenAIProvider(opts: OpenAIProviderOptions): ModelProvider {
  const baseUrl = opts.baseUrl.replace(/\/+$/, '');
  const maxAttempts = Math.max(1, opts.maxAttempts ?? 3);
  const baseDelayMs = opts.baseDelayMs ?? 500;
  const maxDelayMs = opts.maxDelayMs ?? 30_000;
  const doFetch = opts.fetch ?? fetch;
  const pricing = { inputPerMTokUsd: opts.inputPerMTokUsd, outputPerMTokUsd: opts.outputPerMTokUsd, perRunUsd: 0 };
  const names = new Set(opts.models);

  // Providers that echo the request (or the key) in their errors must not leak it into run errors.
  const redact = (text: string): string => (opts.apiKey ? text.split(opts.apiKey).join('[redacted]') : text);

  async function attempt(body: string, signal?: AbortSignal): Promise<{ completion: unknown } | AttemptFailure> {
    const ctrl = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      ctrl.abort();
    }, opts.timeoutMs);
    const onAbort = () => ctrl.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
      if (opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`;
      // Redirects are refused: following one would resend the bearer token to another address.
      const res = await doFetch(`${baseUrl}/chat/completions`, {
        method: 'POST',
        headers,
        body,
        signal: ctrl.signal,
        redirect: 'manual',
      });
      const text = await res.text();
      if (res.ok) {
        try {
          return { completion: JSON.parse(text) as unknown };
        } catch {
          return { error: new ModelError('model provider returned a body that is not JSON', true, res.status) };
        }
      }
      const message = `model provider answered HTTP ${res.status}: ${redact(providerMessage(text))}`;
      const retryable = res.status === 429 || res.status >= 500;
      return { error: new ModelError(message, retryable, res.status), retryAfterMs: retryAfter(res.headers) };
    } catch (err) {
      if (signal?.aborted) throw abortReason(signal);
      if (timedOut) return { error: new ModelError(`model request timed out after ${opts.timeoutMs} ms`, true) };
      const cause = err instanceof Error ? ((err.cause as Error | undefined)?.message ?? err.message) : String(err);
      return { error: new ModelError(`model provider unreachable: ${redact(cause)}`, true) };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  return {
    name: 'openai',
    models: (): ModelInfo[] =>
      opts.models.map((n) => ({ id: `${OPENAI_PREFIX}${n}`, provider: 'openai', pricing: { ...pricing } })),

    async turn(req: TurnRequest, signal?: AbortSignal): Promise<TurnResult> {
      const name = req.modelId.startsWith(OPENAI_PREFIX) ? req.modelId.slice(OPENAI_PREFIX.length) : '';
      if (!names.has(name)) throw new ModelError(`Unknown model ${req.modelId}`, false);
      const payload: Record<string, unknown> = { model: name, messages: mapMessages(req) };
      const tools = mapTools(req.tools);
      if (tools.length > 0) payload.tools = tools;
      const body = JSON.stringify(payload);

      let last: ModelError | undefined;
      for (let n = 0; n < maxAttempts; n++) {
        if (signal?.aborted) throw abortReason(signal);
        const out = await attempt(body, signal);
        if ('completion' in out) {
          return parseCompletion(out.completion, estimateTokens(body));
        }
        last = out.error;
        if (!out.error.retryable || n === maxAttempts - 1) break;
        // openai-node: prefer the server's Retry-After, capped; else exponential backoff with jitter.
        const backoff = baseDelayMs * 2 ** n * (1 + Math.random() * 0.1);
        await sleep(Math.min(out.retryAfterMs ?? backoff, maxDelayMs), signal);
      }
      const error = last as ModelError;
      if (!error.retryable) throw error;
      throw new ModelError(`${error.message} (gave up after ${maxAttempts} attempts)`, true, error.status);
    },
  };
}

/** The provider's own error text: `{ error: { message } }` in the OpenAI format, else the body, shortened. */
function providerMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    if (typeof body.error === 'string') return body.error.slice(0, 500);
    if (typeof body.error?.message === 'string') return body.error.message.slice(0, 500);
    if (typeof body.message === 'string') return body.message.slice(0, 500);
  } catch {
    // not JSON: fall through to the raw text
  }
  return text.trim().slice(0, 500) || '(empty body)';
}

/** `retry-after-ms` (OpenAI), else `Retry-After` in seconds or as an HTTP date. */
function retryAfter(headers: Headers): number | undefined {
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.has('retry-after-ms') && Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** What to throw when the caller cancels: its own reason (Temporal's CancelledFailure), else an AbortError. */
function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted', 'AbortError');
}

/** Waits `ms`, rejecting at once when the caller cancels the run meanwhile. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const done = () => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal as AbortSignal));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
