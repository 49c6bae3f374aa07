/** `client.runs`: creating, steering and waiting for runs. */
import { SvcError, TimeoutError } from '../errors.js';
import type { CallOptions, HttpClient } from '../http.js';
import { CursorList } from '../pagination.js';
import { sleep } from '../runtime.js';
import { parseSse } from '../sse.js';
import { isRunStatus, isTerminalStatus } from '../types.js';
import type { RunArtifact, RunDashboard, RunReport, RunShare } from '../output-types.js';
import type {
  Feedback,
  InputFile,
  LocalRunBatch,
  LocalRunBatchDetail,
  Run,
  RunApproveParams,
  RunCreateParams,
  RunEvent,
  RunFeedbackParams,
  RunInputParams,
  RunListParams,
  RunOutput,
  RunReviewParams,
  RunStep,
  RunStatus,
} from '../types.js';

/** Options of {@link Runs.wait}. */
export interface WaitOptions {
  /** Polling interval when the event stream is unavailable (default 1000 ms). */
  pollMs?: number;
  /** Give up with {@link TimeoutError} after this long (default 300000 ms). */
  timeoutMs?: number;
  /** Called, in order, for each event; awaited before the next one. A throw rejects `wait()`. */
  onEvent?: (event: RunEvent) => void | Promise<void>;
  /** Stop waiting; `wait()` rejects with the signal's reason. */
  signal?: AbortSignal;
  /**
   * Statuses that end the wait besides the terminal ones, typically {@link PAUSED_STATUSES} to stop at a
   * human gate. Without it, `wait` ends only on a terminal status.
   */
  resolveOn?: readonly RunStatus[];
  /**
   * The pending action you just answered: a paused state still showing it is not a new gate (the
   * read model may lag the answer by a moment), so `resolveOn` ignores it.
   */
  answeredActionId?: string;
}

interface WaitState {
  status?: RunStatus;
  actionId?: string;
  /** Whether a run in this state ends the wait. */
  done: (run: Run) => boolean;
}

const path = (id: string, suffix = '') => `/v1/runs/${encodeURIComponent(id)}${suffix}`;

/** Runs of agents. */
export class Runs {
  constructor(private readonly http: HttpClient) {}

  /**
   * Starts a run (201, status `queued`). An `Idempotency-Key` is generated once per call and reused
   * by every retry, so a retried create never starts two runs; pass your own to dedupe across calls.
   * Because the service deduplicates it (same key and body within 24 h: the same run), this is the one
   * POST retried on every 5xx and network error, like a GET.
   * @throws {NotFoundError} unknown agent; {@link ValidationError} unknown fileIds; {@link BillingError}
   * insufficient credits or spend cap; {@link ConflictError} idempotency key reused with another body
   */
  create(params: RunCreateParams, options?: CallOptions): Promise<Run> {
    return this.http.request({ ...options, method: 'POST', path: '/v1/runs', json: params, idempotent: true });
  }

  /**
   * Reads a run.
   * @throws {NotFoundError} for an unknown id
   */
  get(id: string, options?: CallOptions): Promise<Run> {
    return this.http.request({ ...options, method: 'GET', path: path(id) });
  }

  /**
   * Lists runs, newest first: iterate it for every run, or `.pages()` for `{ runs, nextCursor }` pages.
   * @throws {SvcError} on iteration, when a page request fails
   */
  list(params: RunListParams = {}, options?: CallOptions): CursorList<'runs', Run> {
    return new CursorList('runs', (cursor) =>
      this.http.request({ ...options, method: 'GET', path: '/v1/runs', query: { ...params, cursor } }),
    );
  }

  /** The run's output with its status. @throws {NotFoundError} for an unknown id */
  output(id: string, options?: CallOptions): Promise<RunOutput> {
    return this.http.request({ ...options, method: 'GET', path: path(id, '/output') });
  }

  /**
   * The run's steps in order, every page of them; `stepPages` walks them lazily instead.
   * @throws {NotFoundError} for an unknown id
   */
  steps(id: string, options?: CallOptions): Promise<RunStep[]> {
    return this.stepPages(id, {}, options).toArray();
  }

  /**
   * The run's steps in order (oldest first) as a lazily fetched {@link CursorList}.
   * @throws {NotFoundError} on iteration, for an unknown id
   */
  stepPages(id: string, params: { limit?: number } = {}, options?: CallOptions): CursorList<'steps', RunStep> {
    return new CursorList('steps', (cursor) =>
      this.http.request({
        ...options,
        method: 'GET',
        path: path(id, '/steps'),
        query: { limit: params.limit, cursor },
      }),
    );
  }

  /**
   * Answers a run in `needs_input`.
   * @throws {ConflictError} `run.invalid_state` when the run is not waiting for input or `actionId` is stale
   * (without `actionId`, the action the run waits on now is pinned: see `#answer`)
   */
  async input(id: string, params: RunInputParams, options?: CallOptions): Promise<Run> {
    return this.#answer(id, '/input', params, options);
  }

  /**
   * Approves (or rejects, failing the run with `run.rejected`) a run in `needs_approval`.
   * @throws {ConflictError} `run.invalid_state` when the run is not waiting for approval or `actionId` is stale
   */
  async approve(id: string, params: RunApproveParams, options?: CallOptions): Promise<Run> {
    return this.#answer(id, '/approve', params, options);
  }

  /**
   * Reviews a run in `needs_review`: accept, correct (`correctedOutput`), or reject.
   * @throws {ConflictError} `run.invalid_state` when the run is not waiting for review or `actionId` is stale
   */
  async review(id: string, params: RunReviewParams, options?: CallOptions): Promise<Run> {
    return this.#answer(id, '/review', params, options);
  }

  /**
   * Sends an answer pinned to one gate. Without an `actionId` the client reads the run first and pins
   * the id of the action it is waiting on, so that this call and every retry of it (the body is built
   * once) can only answer that gate: a retry that arrives after the run moved on to the next gate gets
   * the first answer's result or a 409, never answers the next question by mistake.
   */
  async #answer<P extends { actionId?: string }>(
    id: string,
    route: string,
    params: P,
    options?: CallOptions,
  ): Promise<Run> {
    let body = params;
    if (body.actionId === undefined) {
      const run = await this.get(id, options);
      if (run.pendingAction) body = { ...params, actionId: run.pendingAction.id };
    }
    return this.http.request({ ...options, method: 'POST', path: path(id, route), json: body });
  }

  /**
   * Rates a run (1..5), optionally with a corrected output.
   * @throws {ValidationError} for a rating outside 1..5
   */
  feedback(id: string, params: RunFeedbackParams, options?: CallOptions): Promise<Feedback> {
    return this.http.request({ ...options, method: 'POST', path: path(id, '/feedback'), json: params });
  }

  /**
   * Cancels a non-terminal run.
   * @throws {ConflictError} `run.invalid_state` when the run already ended
   */
  cancel(id: string, options?: CallOptions): Promise<Run> {
    return this.http.request({ ...options, method: 'POST', path: path(id, '/cancel') });
  }

  /**
   * Shares the run's dashboard: a public link (`url`, no credential needed) showing its id, status, output,
   * steps and completion time. Sharing again gives a new token and the previous link stops working.
   * @throws {NotFoundError} for an unknown run
   */
  share(id: string, options?: CallOptions): Promise<RunShare> {
    return this.http.request({ ...options, method: 'POST', path: path(id, '/share') });
  }

  /**
   * The run's dashboard: the view its shared link shows (id, status, output, steps, completion time), and
   * whether the run is shared now.
   * @throws {NotFoundError} for an unknown run
   */
  dashboard(id: string, options?: CallOptions): Promise<RunDashboard> {
    return this.http.request({ ...options, method: 'GET', path: path(id, '/dashboard') });
  }

  /** The files the run produced (a report, a tool's output), newest first. @throws {NotFoundError} */
  artifacts(id: string, params: { limit?: number } = {}, options?: CallOptions): CursorList<'artifacts', RunArtifact> {
    return new CursorList('artifacts', (cursor) =>
      this.http.request({ ...options, method: 'GET', path: path(id, '/artifacts'), query: { ...params, cursor } }),
    );
  }

  /**
   * The run's report: agent and version, the timeline with who answered each gate and when, output, error,
   * usage and cost, artifacts. The service also renders it as a printable page at `/v1/runs/{id}/report?format=html`.
   * @throws {NotFoundError} for an unknown run
   */
  report(id: string, options?: CallOptions): Promise<RunReport> {
    return this.http.request({ ...options, method: 'GET', path: path(id, '/report') });
  }

  /** The files most recently used as run inputs, newest use first, each once. */
  inputFiles(params: { limit?: number } = {}, options?: CallOptions): CursorList<'files', InputFile> {
    return new CursorList('files', (cursor) =>
      this.http.request({ ...options, method: 'GET', path: '/v1/runs/input-files', query: { ...params, cursor } }),
    );
  }

  /** The batches local runners reported (`POST /v1/local-runs`), newest first. */
  localBatches(params: { limit?: number } = {}, options?: CallOptions): CursorList<'batches', LocalRunBatch> {
    return new CursorList('batches', (cursor) =>
      this.http.request({ ...options, method: 'GET', path: '/v1/local-runs', query: { ...params, cursor } }),
    );
  }

  /** One local-runner batch with its runs' ids. @throws {NotFoundError} for an unknown batch */
  localBatch(id: string, options?: CallOptions): Promise<LocalRunBatchDetail> {
    return this.http.request({ ...options, method: 'GET', path: `/v1/local-runs/${encodeURIComponent(id)}` });
  }

  /**
   * Stops sharing the run's dashboard: its link answers 404 at once.
   * @throws {NotFoundError} for an unknown run, or one that is not shared
   */
  async unshare(id: string, options?: CallOptions): Promise<void> {
    await this.http.request({ ...options, method: 'DELETE', path: path(id, '/share') });
  }

  /**
   * Waits until the run is terminal (`succeeded`, `failed` or `cancelled`) and resolves with it.
   *
   * Follows the live stream `GET /v1/runs/{id}/events` when the service offers it, calling `onEvent`
   * for each `run.status` and `run.step` event. When the stream is unavailable (non-2xx, not
   * `text/event-stream`, no readable body, network error) or ends early, it polls `runs.get` every
   * `pollMs` instead, calling `onEvent` with a `run.status` event whenever the status or pending action changes.
   *
   * A paused run (`needs_*`) is not terminal: answer it from `onEvent`, or pass `resolveOn: PAUSED_STATUSES`
   * to get it back, answer it, and wait again with `answeredActionId`.
   *
   * @throws {TimeoutError} when the run is not terminal within `timeoutMs`
   * @throws {SvcError} `unexpected_status` when the service reports a status this client does not know
   * @throws {SvcError} any error of `runs.get` once its retries are used up (e.g. {@link NotFoundError})
   */
  async wait(id: string, options: WaitOptions = {}): Promise<Run> {
    const { pollMs = 1000, timeoutMs = 300_000, onEvent, signal: userSignal, resolveOn = [] } = options;
    const state: WaitState = {
      done: (run) =>
        isTerminalStatus(run.status) ||
        (resolveOn.includes(run.status) &&
          (options.answeredActionId === undefined || run.pendingAction?.id !== options.answeredActionId)),
    };
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error('runs.wait timed out'));
    }, timeoutMs);
    const onUserAbort = () => controller.abort(userSignal?.reason);
    if (userSignal?.aborted) onUserAbort();
    userSignal?.addEventListener('abort', onUserAbort, { once: true });
    try {
      const signal = controller.signal;
      return (
        (await this.waitOnStream(id, signal, state, onEvent)) ??
        (await this.waitByPolling(id, pollMs, signal, state, onEvent))
      );
    } catch (err) {
      if (!timedOut) throw err;
      throw new TimeoutError({
        code: 'timeout',
        message: `Run ${id} did not finish within ${timeoutMs} ms (last status: ${state.status ?? 'unknown'})`,
        runId: id,
        lastStatus: state.status,
        cause: err,
      });
    } finally {
      clearTimeout(timer);
      userSignal?.removeEventListener('abort', onUserAbort);
    }
  }

  /** The terminal run from the event stream, or `undefined` when the stream is unavailable or ended early. */
  private async waitOnStream(
    id: string,
    signal: AbortSignal,
    state: WaitState,
    onEvent: WaitOptions['onEvent'],
  ): Promise<Run | undefined> {
    let response: Response;
    try {
      response = await this.http.raw({
        method: 'GET',
        path: path(id, '/events'),
        headers: { accept: 'text/event-stream' },
        maxRetries: 0,
        signal,
      });
    } catch (err) {
      if (signal.aborted) throw err;
      return undefined; // no stream (route absent, 5xx, network): polling reports real errors, with retries
    }
    const contentType = response.headers.get('content-type') ?? '';
    const body = response.body;
    if (!/^text\/event-stream\b/i.test(contentType) || !body || typeof body.getReader !== 'function') {
      await body?.cancel().catch(() => undefined);
      return undefined;
    }
    const events = parseSse(body);
    try {
      for (;;) {
        let next: IteratorResult<{ event: string; data: string }>;
        try {
          next = await events.next();
        } catch (err) {
          if (signal.aborted) throw err;
          return undefined; // the stream broke off: carry on by polling
        }
        if (next.done) return undefined; // ended before a terminal status: carry on by polling
        const { event, data } = next.value;
        if (event !== 'run.status' && event !== 'run.step') continue; // unknown types: forward-compatible
        const parsed = parseEventData(id, event, data);
        if (event === 'run.step') {
          await onEvent?.({ type: 'run.step', data: parsed as RunStep });
          continue;
        }
        const run = checkRun(id, parsed);
        state.status = run.status;
        state.actionId = run.pendingAction?.id;
        await onEvent?.({ type: 'run.status', data: run });
        if (isTerminalStatus(run.status)) return run;
        if (state.done(run)) {
          // a paused event may be replayed history: stop only if the run is still at that gate now
          const current = checkRun(id, await this.get(id, { signal }));
          if (state.done(current)) return current;
        }
      }
    } finally {
      await events.return(undefined).catch(() => undefined);
    }
  }

  private async waitByPolling(
    id: string,
    pollMs: number,
    signal: AbortSignal,
    state: WaitState,
    onEvent: WaitOptions['onEvent'],
  ): Promise<Run> {
    for (;;) {
      const run = checkRun(id, await this.get(id, { signal }));
      if (run.status !== state.status || run.pendingAction?.id !== state.actionId) {
        state.status = run.status;
        state.actionId = run.pendingAction?.id;
        await onEvent?.({ type: 'run.status', data: run });
      }
      if (state.done(run)) return run;
      await sleep(pollMs, signal);
    }
  }
}

function parseEventData(id: string, event: string, data: string): unknown {
  try {
    return JSON.parse(data);
  } catch (cause) {
    throw new SvcError({ code: 'invalid_response', message: `Run ${id}: ${event} event data is not JSON`, cause });
  }
}

/** A run whose status this client knows; anything else is an error rather than an endless wait. */
function checkRun(id: string, value: unknown): Run {
  const status = (value as { status?: unknown } | null)?.status;
  if (!isRunStatus(status)) {
    throw new SvcError({
      code: 'unexpected_status',
      message: `Run ${id} has a status this client does not know: ${JSON.stringify(status)}`,
      details: { status },
    });
  }
  return value as Run;
}
