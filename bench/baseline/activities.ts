import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { Pool } from 'pg';
import { SIGNATURE_HEADER, signatureHeader } from '../../domain/deliveries/signature';

/** The baseline workflows' activities: they do nothing, so what remains is Temporal's own cost. */
export const bareActivities = {
  async step(_index: number): Promise<void> {
    // nothing
  },
};

export type BareActivities = typeof bareActivities;

/**
 * The activities of the necessary-work baseline: each records one status of a run in one durable commit
 * (a row of the baseline's own table, `bench_baseline_runs`, written through `pg`), and nothing else.
 */
export function durableActivities(db: Pool) {
  return {
    async record(runId: string, status: string): Promise<void> {
      // completed_at: when the run ended, for the soak's baseline (bench/cases/soakBaseline.ts)
      await db.query(
        `update bench_baseline_runs set status = $2::text,
                completed_at = case when $2::text = 'succeeded' then clock_timestamp() end
          where id = $1`,
        [runId, status],
      );
    },
  };
}

export type DurableActivities = ReturnType<typeof durableActivities>;

/** What the fan-out baseline signs with: signing is work every attempt does; the receivers check no signature. */
const BARE_FANOUT_SECRET = 'bench-secret-0123456789';

/**
 * One signed POST through `agent` (the service's signature, nothing else of its sender), its answer read
 * whole; rejects on a non-2xx answer or an error.
 */
function postSigned(agent: http.Agent, url: string, body: string): Promise<void> {
  const signature = signatureHeader(BARE_FANOUT_SECRET, body, Math.floor(Date.now() / 1000));
  return new Promise<void>((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'Content-Type': 'application/json', [SIGNATURE_HEADER]: signature, 'X-SVC-Attempt': '1' },
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          res.statusCode! >= 200 && res.statusCode! < 300 ? resolve() : reject(new Error(`answered ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * The activities of the fan-out baseline (case 5): a run's status change in one commit, then the work any
 * fan-out to n subscribers must do: their n deliveries recorded in one commit, then one signed POST apiece,
 * all at once, over this process's keep-alive connections (Node's `http.request` and agent, nothing around
 * them: no address check, no delivery slots, no log of the attempts).
 */
export function fanOutActivities(db: Pool) {
  const agent = new http.Agent({ keepAlive: true, scheduling: 'lifo' });
  return {
    /** The run's `succeeded` in one commit; returns when it changed (epoch ms), as a run's completedAt. */
    async finishBare(runId: string): Promise<number> {
      const { rows } = await db.query<{ completed_at: Date }>(
        `update bench_baseline_runs set status = 'succeeded', completed_at = clock_timestamp()
          where id = $1 returning completed_at`,
        [runId],
      );
      return rows[0].completed_at.getTime();
    },
    /** The run's announcement to `urls`: recorded in one commit, then sent to all at once. */
    async fanOutBare(runId: string, urls: string[]): Promise<void> {
      const body = JSON.stringify({
        id: randomUUID(),
        type: 'run.succeeded',
        run: { id: runId, status: 'succeeded', output: { text: 'fan-out' }, error: null },
      });
      await db.query(
        `insert into bench_baseline_deliveries (run_id, url, body) select $1, u, $3 from unnest($2::text[]) u`,
        [runId, urls, body],
      );
      await Promise.all(urls.map((url) => postSigned(agent, url, body)));
    },
  };
}

export type FanOutActivities = ReturnType<typeof fanOutActivities>;
