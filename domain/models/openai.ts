import type OpenAI from 'openai';
import type { APIError } from 'openai';
import { openaiSdk } from '../../platform/lazyPackages';
import { estimateTokens } from './builtin';
import { mapMessages, mapTools, parseCompletion } from './openaiFormat';
import { ModelError, type ModelInfo, type ModelProvider, type TurnRequest, type TurnResult } from './types';

/** Model ids of this provider are `openai/<name>`. */
export const OPENAI_PREFIX = 'openai/';

/** One configured model and its own prices (USD per million tokens). */
export interface OpenAIModel {
  name: string;
  inputPerMTokUsd: number;
  outputPerMTokUsd: number;
}

/** Settings of {@link createOpenAIProvider}; all but `fetch` mirror `config.openai`. */
export interface OpenAIProviderOptions {
  baseUrl: string;
  apiKey?: string;
  models: OpenAIModel[];
  /** Limit of the HTTP call, body included. */
  timeoutMs: number;
  /** Injectable for tests, as openai-node itself allows. */
  fetch?: typeof fetch;
}

/**
 * An OpenAI-compatible chat-completions provider on the official SDK (docs/api/agents.md). Each `turn` is
 * exactly one POST to `${baseUrl}/chat/completions`: the SDK's own retries are off, because retries belong
 * to the caller's retry policy (Temporal's, for the model activity; docs/architecture.md). A 429, a 5xx, a
 * timeout or a network error rejects with a retryable `ModelError`, carrying the provider's `Retry-After`
 * (on 429 and 503) as `retryAfterMs`; any other 4xx (and a redirect) with `retryable: false`. The API key
 * never appears in an error message.
 */
export function createOpenAIProvider(opts: OpenAIProviderOptions): ModelProvider {
  const byName = new Map(opts.models.map((m) => [m.name, m]));
  /** The SDK, loaded on first use (platform/lazyPackages.ts), and one client for every turn. */
  let client: OpenAI | undefined;
  async function connect() {
    const sdk = await openaiSdk();
    client ??= new sdk.default({
      baseURL: opts.baseUrl,
      // The SDK insists on a key; without one configured the Authorization header is removed below.
      apiKey: opts.apiKey ?? 'unused',
      // Everything comes from our config: none of the SDK's OPENAI_* environment fallbacks may apply.
      adminAPIKey: null,
      organization: null,
      project: null,
      webhookSecret: null,
      logLevel: 'off',
      maxRetries: 0,
      // The turn's own timer (below) ends the call; the SDK's must never come first.
      timeout: opts.timeoutMs + 5_000,
      ...(opts.fetch ? { fetch: opts.fetch } : {}),
      // The base URL is operator config, so it is not held to the public-address guard; but a redirect is
      // refused, since following one would resend the bearer token to another address.
      fetchOptions: { redirect: 'manual' },
      ...(opts.apiKey ? {} : { defaultHeaders: { authorization: null } }),
    });
    return { sdk, client };
  }

  // Providers that echo the request (or the key) in their errors must not leak it into run errors.
  const redact = (text: string): string => (opts.apiKey ? text.split(opts.apiKey).join('[redacted]') : text);

  /** Any failure of the call as a `ModelError`, or the caller's own abort reason. */
  function failure(err: unknown, sdk: Awaited<ReturnType<typeof openaiSdk>>, signal?: AbortSignal): unknown {
    const { APIConnectionError, APIError, APIUserAbortError } = sdk;
    if (signal?.aborted || err instanceof APIUserAbortError) return signal ? abortReason(signal) : err;
    if (err instanceof APIConnectionError) {
      return new ModelError(`model provider unreachable: ${redact(rootCause(err))}`, true);
    }
    if (err instanceof APIError && typeof err.status === 'number') {
      const status = err.status;
      const message = `model provider answered HTTP ${status}: ${redact(providerMessage(err))}`;
      const retryable = status === 429 || status >= 500;
      const wait = (status === 429 || status === 503) && err.headers ? retryAfter(err.headers) : undefined;
      return new ModelError(message, retryable, status, wait);
    }
    // A 200 whose body is not a completion (not JSON, say): the next attempt may well get a good one.
    return new ModelError(`model provider returned an unreadable answer: ${redact(String(err))}`.slice(0, 600), true);
  }

  return {
    name: 'openai',
    models: (): ModelInfo[] =>
      opts.models.map((m) => ({
        id: `${OPENAI_PREFIX}${m.name}`,
        provider: 'openai',
        pricing: { inputPerMTokUsd: m.inputPerMTokUsd, outputPerMTokUsd: m.outputPerMTokUsd, perRunUsd: 0 },
      })),

    async turn(req: TurnRequest, signal?: AbortSignal): Promise<TurnResult> {
      const name = req.modelId.startsWith(OPENAI_PREFIX) ? req.modelId.slice(OPENAI_PREFIX.length) : '';
      if (!byName.has(name)) throw new ModelError(`Unknown model ${req.modelId}`, false);
      const { sdk, client } = await connect();
      // after the SDK's first load too: a cancel that came during it must not start the call
      if (signal?.aborted) throw abortReason(signal);
      const tools = mapTools(req.tools);
      const body = { model: name, messages: mapMessages(req), ...(tools.length > 0 ? { tools } : {}) };
      // Our own timer rather than the SDK's, so a timeout is told apart from the caller's cancel for certain. One
      // controller held by the caller's signal's listener, not AbortSignal.any: a composite signal nobody holds
      // strongly may be collected during a long call, and then a cancel would no longer reach the request.
      const ctrl = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        ctrl.abort();
      }, opts.timeoutMs);
      const onAbort = () => ctrl.abort(signal?.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      let completion;
      try {
        completion = await client.chat.completions.create(body, { signal: ctrl.signal });
      } catch (err) {
        if (timedOut && !signal?.aborted) {
          throw new ModelError(`model request timed out after ${opts.timeoutMs} ms`, true);
        }
        throw failure(err, sdk, signal);
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      }
      return parseCompletion(completion, estimateTokens(JSON.stringify(body)));
    },
  };
}

/** The provider's own error text: `{ error: { message } }` in the OpenAI format, else the SDK's message, shortened. */
function providerMessage(err: APIError): string {
  const body = err.error as { message?: unknown } | string | undefined;
  if (typeof body === 'string' && body) return body.slice(0, 500);
  if (body && typeof body === 'object' && typeof body.message === 'string') return body.message.slice(0, 500);
  return err.message.slice(0, 500) || '(empty body)';
}

/** How long the provider asks us to wait: `retry-after-ms` (OpenAI's), else `Retry-After` in seconds or as an HTTP date. */
export function retryAfter(headers: Headers): number | undefined {
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.has('retry-after-ms') && Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** The innermost message of an error's `cause` chain (the SDK wraps fetch's, which wraps the socket's). */
function rootCause(err: Error): string {
  let message = err.message;
  let cause: unknown = err.cause;
  for (let depth = 0; depth < 5 && cause instanceof Error; depth++) {
    if (cause.message) message = cause.message;
    cause = cause.cause;
  }
  return message;
}

/** What to throw when the caller cancels: its own reason (Temporal's CancelledFailure), else an AbortError. */
function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted', 'AbortError');
}
