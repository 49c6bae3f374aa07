import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { Orm } from '../../db/orm';
import { runAdmin } from '../../scripts/admin';
import { runWorkflowId } from '../../workflows/messages';
import { createKey, createWorkspace } from '../../test/helpers/live/accounts';
import { sleep } from './context';
import { request } from '../../test/helpers/live/http';

/**
 * The correctness checks of the replicas case (bench/cases/replicas.ts): what two API processes and two
 * workers on one PostgreSQL and one Temporal must still guarantee. Each returns its findings and an
 * `ok` verdict; none throws on a failed check, the case reports it.
 */

/** A PostgreSQL array literal of ids, bound as one parameter whatever their number. */
const uuidArray = (ids: string[]) => `{${ids.join(',')}}`;

const TERMINAL = ['succeeded', 'failed', 'cancelled'];

/** Waits until no run of the workspace is unfinished; returns the seconds it took. */
export async function drainRuns(orm: Orm, workspaceId: string, timeoutMs = 900_000): Promise<number> {
  const conn = orm.em.fork().getConnection();
  const t0 = Date.now();
  for (;;) {
    const [row] = await conn.execute(
      `select count(*)::int as n from runs where workspace_id = ? and status not in (${TERMINAL.map(() => '?').join(',')})`,
      [workspaceId, ...TERMINAL],
    );
    if (row.n === 0) return (Date.now() - t0) / 1000;
    if (Date.now() - t0 > timeoutMs) throw new Error(`${row.n} runs still unfinished after ${timeoutMs / 1000} s`);
    await sleep(1000);
  }
}

/** Runs executed per second among `ids`: their count over first created → last completed. */
export async function executionRate(orm: Orm, ids: string[]): Promise<number> {
  const [row] = await orm.em
    .fork()
    .getConnection()
    .execute(
      `select count(*)::int as n, extract(epoch from max(completed_at) - min(created_at))::float8 as s
         from runs where id = any(?::uuid[])`,
      [uuidArray(ids)],
    );
  return row.s > 0 ? row.n / row.s : NaN;
}

/**
 * Every 201's run id exists exactly once, no two runs of the workspace share an Idempotency-Key, and
 * every run of the workspace succeeded. `created` holds the ids of every 201 answer; `inFlightBound` is
 * how many requests the load generator may have left unread when it stopped (a connection has at most
 * one in flight): a run beyond them without a 201 was made by a request that answered something else.
 */
export async function accountRuns(orm: Orm, workspaceId: string, created: string[], inFlightBound: number) {
  const conn = orm.em.fork().getConnection();
  const distinct = new Set(created);
  const [found] = await conn.execute(`select count(*)::int as n from runs where id = any(?::uuid[])`, [
    uuidArray([...distinct]),
  ]);
  const [sharedKeys] = await conn.execute(
    `select count(*)::int as n from (select idempotency_key from runs where workspace_id = ?
       and idempotency_key is not null group by idempotency_key having count(*) > 1) d`,
    [workspaceId],
  );
  const statuses = (await conn.execute(
    'select status, count(*)::int as n from runs where workspace_id = ? group by status',
    [workspaceId],
  )) as Array<{ status: string; n: number }>;
  const byStatus: Record<string, number> = Object.fromEntries(statuses.map((r) => [r.status, r.n]));
  const rows = statuses.reduce((sum, r) => sum + r.n, 0);
  return {
    answered201: created.length,
    distinctIds: distinct.size,
    idsFound: found.n as number,
    idsUnique: distinct.size === created.length && found.n === distinct.size,
    keysSharedByRuns: sharedKeys.n as number,
    rows,
    /** Rows no 201 was read for: requests still in flight when the load generator stopped. */
    rowsWithout201: rows - distinct.size,
    inFlightBound,
    noRunWithout201: rows - distinct.size <= inFlightBound,
    byStatus,
    allSucceeded: rows > 0 && byStatus.succeeded === rows,
  };
}

/**
 * `samples` creates, each sent with one Idempotency-Key to both APIs at once (same body): every key must
 * make exactly one run, and every 2xx answer for it must name that run (a concurrent repeat waits for the
 * first and replays it, or is 409 `conflict` if it is still running: docs/api/limits.md#idempotency).
 */
export async function idempotencyAcrossReplicas(
  orm: Orm,
  workspaceId: string,
  urls: [string, string],
  authorization: () => string,
  body: unknown,
  samples: number,
) {
  const statuses: Record<string, number> = {};
  const answered = new Map<string, Set<string>>();
  const created: string[] = [];
  const keys = Array.from({ length: samples }, () => `bench-idem-${randomUUID()}`);
  // ten keys at a time, each key's two requests at the same moment
  for (let i = 0; i < keys.length; i += 10) {
    await Promise.all(
      keys.slice(i, i + 10).map(async (key) => {
        const headers = { authorization: authorization(), 'idempotency-key': key };
        const answers = await Promise.all(urls.map((url) => request(`${url}/v1/runs`, { headers, json: body })));
        const ids = new Set<string>();
        for (const a of answers) {
          statuses[a.status] = (statuses[a.status] ?? 0) + 1;
          if (a.status >= 200 && a.status < 300) ids.add(a.body.id);
          if (a.status === 201) created.push(a.body.id);
        }
        answered.set(key, ids);
      }),
    );
  }
  const rows = await orm.em
    .fork()
    .getConnection()
    .execute(
      `select id, idempotency_key as key from runs where workspace_id = ? and idempotency_key = any(?::text[])`,
      [workspaceId, `{${keys.join(',')}}`],
    );
  const runsByKey = new Map<string, string[]>();
  for (const r of rows as Array<{ id: string; key: string }>)
    runsByKey.set(r.key, [...(runsByKey.get(r.key) ?? []), r.id]);
  let oneRunEach = 0;
  let answersAgree = 0;
  for (const key of keys) {
    const runs = runsByKey.get(key) ?? [];
    const ids = answered.get(key)!;
    if (runs.length === 1) oneRunEach++;
    if (runs.length === 1 && ids.size === 1 && ids.has(runs[0])) answersAgree++;
  }
  const ok = oneRunEach === samples && answersAgree === samples;
  return { keys: samples, statuses, oneRunEach, answersAgree, created, ok };
}

/**
 * One key of a workspace on `plan`, `factor` × its per-minute limit of requests at once, split evenly
 * across the APIs: the counter is shared in PostgreSQL, so exactly the limit is admitted in total. The
 * burst starts early in a minute of the database clock, so that it never spans two windows.
 */
export async function sharedRateLimit(orm: Orm, urls: string[], plan = 'free_trial', factor = 3) {
  const ws = await createWorkspace(urls[0], orm);
  await runAdmin(orm, ['workspace:plan', ws.id, plan]);
  const authorization = await createKey(orm, ws.id);
  const conn = orm.em.fork().getConnection();
  const [clock] = await conn.execute(`select extract(second from now())::float8 as s`);
  if (clock.s > 40) await sleep((61 - clock.s) * 1000);
  const probe = await request(`${urls[0]}/v1/runs?limit=1`, { headers: { authorization } });
  const limit = Number(probe.headers.get('ratelimit-limit'));
  const statuses: Record<string, number> = { [probe.status]: 1 };
  const answers = await Promise.all(
    Array.from({ length: factor * limit - 1 }, (_, i) =>
      request(`${urls[(i + 1) % urls.length]}/v1/runs?limit=1`, { headers: { authorization } }),
    ),
  );
  for (const a of answers) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
  const admitted = Object.entries(statuses)
    .filter(([s]) => Number(s) >= 200 && Number(s) < 300)
    .reduce((sum, [, n]) => sum + n, 0);
  return {
    plan,
    limit,
    sent: factor * limit,
    admitted,
    statuses,
    ok: admitted === limit && (statuses['429'] ?? 0) === factor * limit - limit,
  };
}

/**
 * Which workers executed the runs: the identities (`pid@host`) that started their workflow tasks and
 * activities, from the histories of up to `sample` of them, with how many tasks each started. An echo
 * run's steps are local activities inside its one workflow task, so its history has no activity: the
 * workflow tasks say which worker ran it.
 */
export async function workerIdentities(client: Client, runIds: string[], sample = 20) {
  const step = Math.max(1, Math.floor(runIds.length / sample));
  const picked = runIds.filter((_, i) => i % step === 0).slice(0, sample);
  const tasks: Record<string, number> = {};
  for (const id of picked) {
    const history = await client.workflow.getHandle(runWorkflowId(id)).fetchHistory();
    for (const e of history.events ?? []) {
      const identity = e.workflowTaskStartedEventAttributes?.identity ?? e.activityTaskStartedEventAttributes?.identity;
      if (identity) tasks[identity] = (tasks[identity] ?? 0) + 1;
    }
  }
  return { runsSampled: picked.length, tasks, ok: Object.keys(tasks).length >= 2 };
}
