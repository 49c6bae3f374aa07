import { randomUUID } from 'node:crypto';
import { createAgent } from '../helpers/live/accounts';
import { request } from '../helpers/live/http';
import { Checks, drillWorkspace, startApi, TERMINAL, waitForRuns, type DrillEnv } from './lib';

const CREATES = 200;
const IN_FLIGHT = 50;
/** The API is killed once this many creates have been answered. */
const KILL_AFTER = 80;

interface Attempt {
  key: string;
  body: { agentId: string; input: { n: number } };
  first?: { status: number; runId?: string } | { error: string };
  replay?: { status: number; runId?: string } | { error: string };
}

async function send(env: DrillEnv, auth: () => Record<string, string>, a: Attempt) {
  try {
    const res = await request(`${env.api.url}/v1/runs`, {
      headers: { ...auth(), 'idempotency-key': a.key },
      json: a.body,
      timeoutMs: 15_000,
    });
    return { status: res.status, runId: res.body?.id as string | undefined };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

/**
 * Kill -9 the API in the middle of a burst of 200 creates that carry `Idempotency-Key`s, restart
 * it, replay all 200 requests: exactly one run per key, each replay answers with that run, and every
 * run still finishes (a run whose row committed but whose workflow never started would be lost).
 */
export async function apiKillDrill(env: DrillEnv, checks: Checks): Promise<string> {
  const ws = await drillWorkspace(env, 1000);
  const agentId = await createAgent(env.api.url, ws.pool.next());
  const attempts: Attempt[] = Array.from({ length: CREATES }, (_, n) => ({
    key: `drill-${randomUUID()}`,
    body: { agentId, input: { n } },
  }));

  let answered = 0;
  let killed = false;
  let next = 0;
  const lane = async () => {
    while (next < attempts.length) {
      const a = attempts[next++];
      a.first = await send(env, ws.auth, a);
      if (++answered >= KILL_AFTER && !killed) {
        killed = true;
        env.api.kill9();
      }
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
  await env.api.exited;
  const created = attempts.filter((a) => a.first && 'status' in a.first && a.first.status === 201).length;
  const failed = attempts.filter((a) => a.first && 'error' in a.first).length;
  const other = attempts.filter((a) => a.first && 'status' in a.first && a.first.status !== 201);
  checks.ok(
    other.length === 0,
    `before the kill, ${other.length} creates got neither 201 nor a broken connection: ${JSON.stringify(other[0]?.first)}`,
  );

  await startApi(env);
  next = 0;
  const replayLane = async () => {
    while (next < attempts.length) {
      const a = attempts[next++];
      a.replay = await send(env, ws.auth, a);
    }
  };
  await Promise.all(Array.from({ length: 10 }, replayLane));
  const badReplays = attempts.filter(
    (a) => !a.replay || !('status' in a.replay) || ![200, 201].includes(a.replay.status),
  );
  checks.ok(
    badReplays.length === 0,
    `${badReplays.length} replays did not answer 200/201: ${JSON.stringify(badReplays[0]?.replay)}`,
  );
  const changed = attempts.filter(
    (a) =>
      a.first &&
      'runId' in a.first &&
      a.first.runId &&
      a.replay &&
      'runId' in a.replay &&
      a.replay.runId !== a.first.runId,
  );
  checks.ok(changed.length === 0, `${changed.length} keys answered with a different run after the restart`);
  const replayedExisting = attempts.filter((a) => a.replay && 'status' in a.replay && a.replay.status === 200).length;

  const rows: Array<{ key: string; n: number }> = await env.orm.em
    .fork()
    .getConnection()
    .execute(
      `select idempotency_key as key, count(*)::int as n from runs where workspace_id = ? and idempotency_key in (?) group by idempotency_key`,
      [ws.id, attempts.map((a) => a.key)],
    );
  const perKey = new Map(rows.map((r) => [r.key, r.n]));
  const missing = attempts.filter((a) => !perKey.has(a.key)).length;
  const duplicated = rows.filter((r) => r.n > 1).length;
  checks.ok(
    missing === 0 && duplicated === 0,
    `runs per key: ${missing} keys without a run, ${duplicated} keys with more than one`,
  );

  const ids = attempts.flatMap((a) => (a.replay && 'runId' in a.replay && a.replay.runId ? [a.replay.runId] : []));
  const runs = await waitForRuns(env, ws, ids, (r) => TERMINAL.includes(r.status), 60_000);
  const stuck = ids.filter((id) => !TERMINAL.includes(runs.get(id)?.status));
  const stuckQueued = stuck.filter((id) => runs.get(id)?.status === 'queued');
  checks.ok(
    stuck.length === 0,
    `${stuck.length} runs never finished (${stuckQueued.length} still queued: their row committed but the kill came before the workflow start, and the replay returned the row without starting it), e.g. ${stuck.slice(0, 3).join(', ')}`,
  );
  return `killed after ${KILL_AFTER} answers: ${created} created, ${failed} cut off; replay: ${replayedExisting} × 200 (existing run), ${CREATES - replayedExisting} × 201; ${rows.length} keys with exactly ${duplicated ? 'MORE than ' : ''}one run; ${ids.length - stuck.length}/${ids.length} runs finished`;
}
