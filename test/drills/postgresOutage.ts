import { createAgent } from '../helpers/live/accounts';
import { request, waitForTerminal } from '../helpers/live/http';
import { Checks, createRun, drillWorkspace, serviceScript, sleep, TERMINAL, waitForRuns, type DrillEnv } from './lib';

const OUTAGE_MS = 10_000;
/** Load before the outage, and again after every request kind has recovered. */
const STEADY_MS = 3000;
/** How long after PostgreSQL is back every request kind must have answered 2xx again. */
const RECOVERY_MS = 30_000;
const USERS = 10;
/** Each user pauses this long between requests, which bounds how many requests the drill can send. */
const PACE_MS = 20;
/**
 * The longest the load can last, with room for stopping and starting PostgreSQL. With answers as fast
 * as a quick host gives, a user sends one request per pause, so the key pool is sized for that bound: a
 * 429 from the per-key rate limit is never the drill's doing.
 */
const LOAD_MAX_MS = STEADY_MS + OUTAGE_MS + RECOVERY_MS + STEADY_MS + 15_000;
/** An answer slower than this counts as a hang (the pool's connect timeout is 3 s). */
const HANG_MS = 8_000;

type Kind = 'get' | 'list' | 'create';

interface Sample {
  kind: Kind;
  at: number;
  ms: number;
  status: number;
  code?: string;
  retryAfter?: string | null;
}

/**
 * Stop PostgreSQL for 10 s while clients keep reading and creating runs: every answer in the outage
 * is 503 `unavailable` with `Retry-After` (never a 500, never a hang), and the same API process
 * answers 2xx again once PostgreSQL is back; runs caught in the outage finish.
 */
export async function postgresOutageDrill(env: DrillEnv, checks: Checks): Promise<string> {
  const ws = await drillWorkspace(env, USERS * Math.ceil(LOAD_MAX_MS / PACE_MS) + 2000);
  const agentId = await createAgent(env.api.url, ws.pool.next());
  const known = await createRun(env, ws, agentId, { text: 'before' });
  const created: string[] = [known.id];
  const samples: Sample[] = [];
  let stop = false;

  const kinds: Kind[] = ['get', 'list', 'create'];
  const user = async (u: number) => {
    for (let i = u; !stop; i++) {
      const kind = kinds[i % kinds.length];
      const t0 = Date.now();
      let sample: Sample;
      try {
        const res =
          kind === 'get'
            ? await request(`${env.api.url}/v1/runs/${known.id}`, { headers: ws.auth(), timeoutMs: 30_000 })
            : kind === 'list'
              ? await request(`${env.api.url}/v1/runs?limit=20`, { headers: ws.auth(), timeoutMs: 30_000 })
              : await request(`${env.api.url}/v1/runs`, {
                  headers: ws.auth(),
                  json: { agentId, input: { text: 'load' } },
                  timeoutMs: 30_000,
                });
        if (kind === 'create' && res.status === 201) created.push(res.body.id);
        sample = {
          kind,
          at: t0,
          ms: Date.now() - t0,
          status: res.status,
          code: res.body?.error?.code,
          retryAfter: res.headers.get('retry-after'),
        };
      } catch {
        sample = { kind, at: t0, ms: Date.now() - t0, status: 0 };
      }
      samples.push(sample);
      await sleep(PACE_MS);
    }
  };
  const load = Promise.all(Array.from({ length: USERS }, (_, u) => user(u)));

  await sleep(STEADY_MS);
  const apiPid = env.api.child.pid;
  await serviceScript('postgres', 'stop');
  const downAt = Date.now();
  await sleep(OUTAGE_MS);
  await serviceScript('postgres', 'start');
  const upAt = Date.now();
  // Recovered: every kind answered 2xx again (at most RECOVERY_MS after PostgreSQL is back).
  const recovered: Partial<Record<Kind, number>> = {};
  while (Date.now() - upAt < RECOVERY_MS && kinds.some((k) => recovered[k] === undefined)) {
    for (const s of samples)
      if (s.at >= upAt && s.status >= 200 && s.status < 300) recovered[s.kind] ??= s.at + s.ms - upAt;
    await sleep(200);
  }
  await sleep(STEADY_MS);
  stop = true;
  await load;

  const inOutage = samples.filter((s) => s.at + s.ms > downAt && s.at < upAt);
  const errors500 = samples.filter((s) => s.status >= 500 && s.status !== 503);
  const hangs = samples.filter((s) => s.status === 0 || s.ms > HANG_MS);
  const bad503 = samples.filter((s) => s.status === 503 && (s.code !== 'unavailable' || !s.retryAfter));
  const unexpected = samples.filter(
    (s) => s.status !== 503 && (s.status < 200 || s.status >= 300) && s.status < 500 && s.status !== 0,
  );
  const outage503 = inOutage.filter((s) => s.status === 503).length;
  checks.ok(
    errors500.length === 0,
    `${errors500.length} answers were 5xx other than 503, e.g. ${JSON.stringify(errors500[0])}`,
  );
  checks.ok(
    hangs.length === 0,
    `${hangs.length} requests hung (no answer within ${HANG_MS} ms), e.g. ${JSON.stringify(hangs[0])}`,
  );
  checks.ok(bad503.length === 0, `${bad503.length} 503s without code unavailable and Retry-After`);
  checks.ok(
    unexpected.length === 0,
    `${unexpected.length} unexpected 4xx answers, e.g. ${JSON.stringify(unexpected[0])}` +
      (ws.pool.overdrawn > 0 ? ` (${ws.pool.overdrawn} requests were sent after the key pool was spent)` : ''),
  );
  checks.ok(outage503 > 0, 'no 503 was seen during the outage (did PostgreSQL stop?)');
  checks.ok(
    kinds.every((k) => recovered[k] !== undefined),
    `not every request kind recovered within ${RECOVERY_MS / 1000} s: ${JSON.stringify(recovered)}`,
  );
  checks.ok(env.api.alive() && env.api.child.pid === apiPid, 'the API process was restarted or died');

  // Runs created before and around the outage finish; the event stream works again (LISTEN reconnected).
  const runs = await waitForRuns(env, ws, created, (r) => TERMINAL.includes(r.status), 120_000);
  const unfinished = created.filter((id) => runs.get(id)?.status !== 'succeeded');
  const why = [
    ...new Set(unfinished.map((id) => `${runs.get(id)?.status} ${JSON.stringify(runs.get(id)?.error ?? null)}`)),
  ];
  checks.ok(
    unfinished.length === 0,
    `${unfinished.length}/${created.length} runs created around the outage did not succeed: ${why.slice(0, 3).join('; ')}`,
  );
  const fresh = await createRun(env, ws, agentId, { text: 'after' });
  const sse = await waitForTerminal(env.api.url, fresh.id, ws.auth(), 30_000).catch((err) => ({
    status: `no event: ${err.message}`,
  }));
  checks.ok(sse.status === 'succeeded', `a run after the outage, watched on its event stream: ${sse.status}`);

  const maxOutageMs = Math.max(0, ...inOutage.map((s) => s.ms));
  return `${samples.length} requests; in the outage ${inOutage.length} answered (${outage503} × 503 unavailable, slowest ${maxOutageMs} ms); 500s: ${errors500.length}, hangs: ${hangs.length}; recovered (ms after PostgreSQL was back) ${JSON.stringify(recovered)}; ${created.length - unfinished.length}/${created.length} runs succeeded`;
}
