import autocannon from 'autocannon';
import { summarize, type Summary } from './stats';

export interface HttpLoad {
  url: string;
  method?: 'GET' | 'POST';
  body?: string;
  headers?: Record<string, string>;
  /** Called per request: returns the headers to send (e.g. the next API key of a pool). */
  perRequestHeaders?: () => Record<string, string>;
  /** Called with every response's status and body (e.g. to keep the ids of what was created). */
  onResponse?: (status: number, body: string) => void;
  connections: number;
  seconds: number;
  warmupSeconds?: number;
}

export interface HttpResult extends Summary {
  /** Response status → count, over the measured window. */
  statuses: Record<string, number>;
}

/** One measured stretch: every 2xx response time, how long it ran, the other answers. */
interface Fired {
  latencies: number[];
  seconds: number;
  errors: number;
  statuses: Record<string, number>;
}

function fire(load: HttpLoad, seconds: number): Promise<Fired> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  return new Promise((resolve, reject) => {
    const headers = { 'content-type': 'application/json', ...load.headers };
    const instance = autocannon(
      {
        url: load.url,
        method: load.method ?? 'GET',
        body: load.body,
        headers,
        connections: load.connections,
        duration: seconds,
        timeout: 30,
        requests:
          load.perRequestHeaders || load.onResponse
            ? [
                {
                  ...(load.perRequestHeaders && {
                    setupRequest: (req) => ({ ...req, headers: { ...headers, ...load.perRequestHeaders!() } }),
                  }),
                  ...(load.onResponse && { onResponse: (status, body) => load.onResponse!(status, body) }),
                },
              ]
            : undefined,
      },
      (err, result) => {
        if (err) return reject(err);
        // autocannon reports 2.5/97.5 percentiles, not 95: keep every 2xx response time ourselves.
        resolve({
          latencies,
          seconds: result.duration,
          errors: result.errors + result.timeouts + result.non2xx,
          statuses,
        });
      },
    );
    instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
      statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    });
  });
}

/**
 * Drives one HTTP request shape with autocannon at a fixed number of connections: a warm-up run
 * whose numbers are thrown away, then the measured run. Latencies are of 2xx responses only; any
 * other answer counts as an error.
 */
export async function measureHttp(load: HttpLoad): Promise<HttpResult> {
  if (load.warmupSeconds) await fire(load, load.warmupSeconds);
  return result([await fire(load, load.seconds)]);
}

/**
 * measureHttp for several request shapes compared with one another, taken in turns instead of one after
 * the other: each warms up, then `rounds` rounds give each shape `seconds / rounds` in turn (the order
 * rotating every round), and each shape's stretches are added up. On a machine whose speed drifts over
 * tens of seconds (a shared VM), a shape measured whole after another would get a different machine;
 * taken in turns, every shape gets the same mix of fast and slow stretches.
 */
export async function measureHttpInTurns(loads: HttpLoad[], rounds: number): Promise<HttpResult[]> {
  for (const load of loads) if (load.warmupSeconds) await fire(load, load.warmupSeconds);
  const stretches: Fired[][] = loads.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < loads.length; k++) {
      const i = (round + k) % loads.length;
      stretches[i].push(await fire(loads[i], loads[i].seconds / rounds));
    }
  }
  return stretches.map(result);
}

function result(stretches: Fired[]): HttpResult {
  const latencies = stretches.flatMap((s) => s.latencies);
  const seconds = stretches.reduce((sum, s) => sum + s.seconds, 0);
  const statuses: Record<string, number> = {};
  for (const s of stretches) for (const [k, n] of Object.entries(s.statuses)) statuses[k] = (statuses[k] ?? 0) + n;
  const summary = summarize(
    latencies,
    seconds,
    stretches.reduce((sum, s) => sum + s.errors, 0),
  );
  return { ...summary, rps: latencies.length / seconds, statuses };
}

export interface LoopOptions {
  concurrency: number;
  seconds: number;
  warmupSeconds: number;
  /**
   * One operation. Its latency is its duration, unless it resolves with a number: then that is the
   * latency (for operations with untimed set-up, such as waiting for the next question).
   */
  operation: (worker: number) => Promise<number | void>;
}

/**
 * A closed loop for operations that are not one HTTP request (create → wait for the terminal
 * event; signal → wait for the status): `concurrency` virtual users each run `operation` back to
 * back. Operations started during the warm-up or finishing after the window are not counted.
 */
export async function closedLoop(opts: LoopOptions): Promise<Summary> {
  const start = Date.now();
  const measureFrom = start + opts.warmupSeconds * 1000;
  const end = measureFrom + opts.seconds * 1000;
  const latencies: number[] = [];
  let errors = 0;
  let firstError: unknown;
  const user = async (worker: number) => {
    while (Date.now() < end) {
      const t0 = performance.now();
      const startedAt = Date.now();
      try {
        const measured = await opts.operation(worker);
        const latency = typeof measured === 'number' ? measured : performance.now() - t0;
        if (startedAt >= measureFrom && Date.now() <= end) latencies.push(latency);
      } catch (err) {
        errors++;
        firstError ??= err;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency }, (_, i) => user(i)));
  if (firstError)
    console.error(`  (${errors} failed operations; first: ${(firstError as Error).message ?? firstError})`);
  return summarize(latencies, opts.seconds, errors);
}
