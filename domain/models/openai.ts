import { estimateTokens } from './builtin';
import { mapMessages, mapTools, parseCompletion } from './openaiFormat';
import { ModelError, type ModelInfo, type ModelProvider, type TurnRequest, type TurnResult } from './types';

/** Model ids of this provider are `openai/<name>`. */
export const OPENAI_PREFIX = 'openai/';

/** Settings of {@link createOpenAIProvider}; all but `fetch` mirror `config.openai`. */
export interface OpenAIProviderOptions {
  baseUrl: string;
  apiKey?: string;
  models: string[];
  inputPerMTokUsd: number;
  outputPerMTokUsd: number;
  /** Limit of the HTTP call, body included. */
  timeoutMs: number;
  /** Injectable for tests, as openai-node does. */
  fetch?: typeof fetch;
}

/**
 * An OpenAI-compatible chat-completions provider (docs/api/agents.md). Each `turn` is exactly one POST
 * to `${baseUrl}/chat/completions`: retries belong to the caller's retry policy (Temporal's, for the
 * model activity; docs/architecture.md), never to this provider. A 429, a 5xx, a timeout or a network
 * error rejects with a retryable `ModelError`, carrying the provider's `Retry-After` (on 429 and 503) as
 * `retryAfterMs`; any other 4xx with `retryable: false`. The API key never appears in an error message.
 */
export function createOpenAIProvider(opts: OpenAIProviderOptions): ModelProvider {
  const baseUrl = opts.baseUrl.replace(/(?<!\/)\/+$/, '');
  const doFetch = opts.fetch ?? fetch;
  const pricing = { inputPerMTokUsd: opts.inputPerMTokUsd, outputPerMTokUsd: opts.outputPerMTokUsd, perRunUsd: 0 };
  const names = new Set(opts.models);

  // Providers that echo the request (or the key) in their errors must not leak it into run errors.
  const redact = (text: string): string => (opts.apiKey ? text.split(opts.apiKey).join('[redacted]') : text);

  /** The one HTTP call of a turn: the parsed body, or a rejection with a `ModelError` (or the caller's abort reason). */
  async function call(body: string, signal?: AbortSignal): Promise<unknown> {
    const ctrl = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      ctrl.abort();
    }, opts.timeoutMs);
    const onAbort = () => ctrl.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    let res: Response;
    let text: string;
    try {
      const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
      if (opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`;
      // Redirects are refused: following one would resend the bearer token to another address.
      res = await doFetch(`${baseUrl}/chat/completions`, {
        method: 'POST',
        headers,
        body,
        signal: ctrl.signal,
        redirect: 'manual',
      });
      text = await res.text();
    } catch (err) {
      if (signal?.aborted) throw abortReason(signal);
      if (timedOut) throw new ModelError(`model request timed out after ${opts.timeoutMs} ms`, true);
      const cause = err instanceof Error ? ((err.cause as Error | undefined)?.message ?? err.message) : String(err);
      throw new ModelError(`model provider unreachable: ${redact(cause)}`, true);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
    if (res.ok) {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw new ModelError('model provider returned a body that is not JSON', true, res.status);
      }
    }
    const message = `model provider answered HTTP ${res.status}: ${redact(providerMessage(text))}`;
    const retryable = res.status === 429 || res.status >= 500;
    const wait = res.status === 429 || res.status === 503 ? retryAfter(res.headers) : undefined;
    throw new ModelError(message, retryable, res.status, wait);
  }

  return {
    name: 'openai',
    models: (): ModelInfo[] =>
      opts.models.map((n) => ({ id: `${OPENAI_PREFIX}${n}`, provider: 'openai', pricing: { ...pricing } })),

    async turn(req: TurnRequest, signal?: AbortSignal): Promise<TurnResult> {
      const name = req.modelId.startsWith(OPENAI_PREFIX) ? req.modelId.slice(OPENAI_PREFIX.length) : '';
      if (!names.has(name)) throw new ModelError(`Unknown model ${req.modelId}`, false);
      if (signal?.aborted) throw abortReason(signal);
      const payload: Record<string, unknown> = { model: name, messages: mapMessages(req) };
      const tools = mapTools(req.tools);
      if (tools.length > 0) payload.tools = tools;
      const body = JSON.stringify(payload);
      return parseCompletion(await call(body, signal), estimateTokens(body));
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

/** How long the provider asks us to wait: `retry-after-ms` (OpenAI's), else `Retry-After` in seconds or as an HTTP date. */
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
