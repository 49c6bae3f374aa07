import { expectStatus, request } from '../helpers/live/http';
import { createAgent } from '../helpers/live/accounts';
import { Checks, drillWorkspace, sleep, startWorker, type DrillEnv } from './lib';

const SESSIONS = 20;

/**
 * Kill -9 the worker while 20 tutor conversations are each in the middle of a turn (its run waiting for
 * approval), approve the runs while no worker runs, start a new worker, then repeat every message with
 * its Idempotency-Key: every turn has exactly one reply, one run and one charge (docs/api/conversations.md).
 */
export async function conversationKillDrill(env: DrillEnv, checks: Checks): Promise<string> {
  const ws = await drillWorkspace(env, 200);
  const agentId = await createAgent(env.api.url, ws.pool.next(), { settings: { approval: 'before_output' } });
  const sessions: string[] = [];
  for (let i = 0; i < SESSIONS; i++) {
    const s = await expectStatus(201, `${env.api.url}/v1/tutor/sessions`, {
      headers: ws.auth(),
      json: { agentId, topic: `drill ${i}` },
    });
    sessions.push(s.id);
  }
  const say = (i: number) =>
    request(`${env.api.url}/v1/tutor/sessions/${sessions[i]}/messages`, {
      headers: { ...ws.auth(), 'idempotency-key': `drill-msg-${i}` },
      json: { text: `question ${i}` },
      timeoutMs: 150_000,
    });
  const first = sessions.map((_, i) => say(i).catch((err: Error) => ({ status: 0, body: err.message })));

  const conn = env.orm.em.fork().getConnection();
  const waiting = async () =>
    (
      (await conn.execute(
        `select id from runs where workspace_id = ? and status = 'needs_approval' and metadata->>'conversationId' in (?)`,
        [ws.id, sessions],
      )) as Array<{ id: string }>
    ).map((r) => r.id);
  let runIds: string[] = [];
  const until = Date.now() + 60_000;
  while (Date.now() < until && (runIds = await waiting()).length < SESSIONS) await sleep(200);
  checks.ok(runIds.length === SESSIONS, `${runIds.length}/${SESSIONS} turns mid-run at the kill`);

  env.worker.kill9();
  await env.worker.exited;
  for (const id of runIds) {
    await expectStatus(202, `${env.api.url}/v1/runs/${id}/approve`, { headers: ws.auth(), json: { approved: true } });
  }
  await startWorker(env);

  const firstAnswers = await Promise.all(first);
  const statuses = firstAnswers.map((r) => r.status);
  let replies = 0;
  for (let i = 0; i < SESSIONS; i++) {
    const again = await say(i);
    const good = again.status === 200 && again.body.reply === `question ${i}` && again.body.duplicate === true;
    checks.ok(good, `session ${i}: repeat → ${again.status} ${JSON.stringify(again.body)}`);
    if (good) replies++;
  }

  const [{ users, assistants }] = await conn.execute(
    `select count(*) filter (where role = 'user')::int as users, count(*) filter (where role = 'assistant')::int as assistants
       from conversation_messages where conversation_id in (?)`,
    [sessions],
  );
  const [{ runs, convs }] = await conn.execute(
    `select count(*)::int as runs, count(distinct metadata->>'conversationId')::int as convs
       from runs where workspace_id = ? and metadata->>'conversationId' in (?)`,
    [ws.id, sessions],
  );
  const [{ charges, charged }] = await conn.execute(
    `select count(*)::int as charges, count(distinct l.run_id)::int as charged
       from ledger_entries l join runs r on r.id = l.run_id
      where l.kind = 'charge' and r.metadata->>'conversationId' in (?)`,
    [sessions],
  );
  checks.ok(
    users === SESSIONS && assistants === SESSIONS,
    `${users} messages, ${assistants} replies, want ${SESSIONS} each`,
  );
  checks.ok(runs === SESSIONS && convs === SESSIONS, `${runs} turn runs in ${convs} conversations, want ${SESSIONS}`);
  checks.ok(charges === SESSIONS && charged === SESSIONS, `${charges} charges of ${charged} runs, want ${SESSIONS}`);
  const answered = statuses.filter((s) => s === 200).length;
  return `${runIds.length} turns mid-run at the kill; first requests ${answered} × 200, ${SESSIONS - answered} × other (${[...new Set(statuses)].join('/')}); repeats ${replies}/${SESSIONS} with the one reply; ${assistants} replies, ${runs} runs, ${charges} charges`;
}
