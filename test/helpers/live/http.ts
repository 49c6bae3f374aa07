/** Small HTTP helpers shared by the benchmark and the drills (127.0.0.1 only). */

export interface JsonResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** One JSON request; never throws on an HTTP status, only on a network failure or `timeoutMs`. */
export async function request<T = any>(
  url: string,
  init: { method?: string; headers?: Record<string, string>; json?: unknown; timeoutMs?: number } = {},
): Promise<JsonResponse<T>> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, {
    method: init.method ?? (init.json !== undefined ? 'POST' : 'GET'),
    headers,
    body: init.json !== undefined ? JSON.stringify(init.json) : undefined,
    signal: AbortSignal.timeout(init.timeoutMs ?? 30_000),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, headers: res.headers, body: body as T };
}

/** Like `request`, but the status must be `expected`. */
export async function expectStatus<T = any>(
  expected: number | number[],
  url: string,
  init: Parameters<typeof request>[1] = {},
): Promise<T> {
  const res = await request<T>(url, init);
  const ok = Array.isArray(expected) ? expected.includes(res.status) : res.status === expected;
  if (!ok) throw new Error(`${init.method ?? 'GET'} ${url} → ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export interface SseEvent {
  id: string;
  event: string;
  data: any;
}

const TERMINAL = ['succeeded', 'failed', 'cancelled'];
export const isTerminalStatus = (e: SseEvent) => e.event === 'run.status' && TERMINAL.includes(e.data?.status);

/**
 * `GET /v1/runs/{id}/events` (server-sent events) read as it arrives. Events are kept in order; `next`
 * consumes up to and including the first that matches.
 */
export class RunEventStream {
  private events: SseEvent[] = [];
  private waiters: Array<() => void> = [];
  private ended = false;
  private failure: Error | undefined;

  private constructor(private readonly abort: AbortController) {}

  static async open(
    baseUrl: string,
    runId: string,
    headers: Record<string, string>,
    lastEventId?: string,
  ): Promise<RunEventStream> {
    const abort = new AbortController();
    const res = await fetch(`${baseUrl}/v1/runs/${runId}/events`, {
      headers: { ...headers, accept: 'text/event-stream', ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
      signal: abort.signal,
    });
    if (res.status !== 200 || !res.body) throw new Error(`events of ${runId}: ${res.status} ${await res.text()}`);
    const stream = new RunEventStream(abort);
    void stream.pump(res.body);
    return stream;
  }

  private async pump(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const fields: Record<string, string> = {};
          for (const line of block.split('\n')) {
            const m = /^([a-z]+): ?(.*)$/i.exec(line);
            if (m) fields[m[1]] = fields[m[1]] === undefined ? m[2] : `${fields[m[1]]}\n${m[2]}`;
          }
          if (fields.event && fields.data !== undefined) {
            this.events.push({ id: fields.id ?? '', event: fields.event, data: JSON.parse(fields.data) });
            this.wake();
          }
        }
      }
    } catch (err) {
      if (!this.abort.signal.aborted) this.failure = err as Error;
    } finally {
      this.ended = true;
      this.wake();
    }
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  /** Waits for (and consumes up to) the first event matching `predicate`. */
  async next(predicate: (e: SseEvent) => boolean, timeoutMs = 60_000): Promise<SseEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      while (this.events.length) {
        const e = this.events.shift()!;
        if (predicate(e)) return e;
      }
      if (this.failure) throw this.failure;
      if (this.ended) throw new Error('event stream ended');
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching event within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  close(): void {
    this.abort.abort();
  }
}

/** Opens the run's event stream and resolves with the run once its terminal `run.status` event arrives. */
export async function waitForTerminal(
  baseUrl: string,
  runId: string,
  headers: Record<string, string>,
  timeoutMs = 60_000,
): Promise<any> {
  const stream = await RunEventStream.open(baseUrl, runId, headers);
  try {
    return (await stream.next(isTerminalStatus, timeoutMs)).data;
  } finally {
    stream.close();
  }
}
