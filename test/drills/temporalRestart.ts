import { expectStatus, request } from '../helpers/live/http';
import {
  Checks,
  createRun,
  drillWorkspace,
  scriptedAgent,
  serviceScript,
  sleep,
  TERMINAL,
  waitForRuns,
  type DrillEnv,
} from './lib';

const RUNS = 10;
/** How long Temporal stays down. */
const OUTAGE_MS = 10_000;

/**
 * Stop the Temporal dev server (its SQLite file survives) while runs wait in `needs_approval`, start
 * it again, approve them: all finish, on the worker and API processes that lived through it. While
 * Temporal is down an approval gets 503 `unavailable` and can simply be sent again later.
 */
export async function temporalRestartDrill(env: DrillEnv, checks: Checks): Promise<string> {
  const ws = await drillWorkspace(env);
  const approver = await scriptedAgent(env, ws, { approval: 'before_output' });
  const ids: string[] = [];
  for (let i = 0; i < RUNS; i++) ids.push((await createRun(env, ws, approver, { script: [{ final: { i } }] })).id);
  let runs = await waitForRuns(env, ws, ids, (r) => r.status === 'needs_approval', 60_000);
  checks.ok(
    ids.every((id) => runs.get(id)?.status === 'needs_approval'),
    `not every run reached needs_approval before the stop`,
  );

  const apiPid = env.api.child.pid;
  const workerPid = env.worker.child.pid;
  await serviceScript('temporal', 'stop');
  const downAt = Date.now();
  const t0 = Date.now();
  const during = await request(`${env.api.url}/v1/runs/${ids[0]}/approve`, {
    headers: ws.auth(),
    json: { approved: true },
    timeoutMs: 20_000,
  }).catch((err) => ({ status: 0, headers: new Headers(), body: String(err) }));
  const duringMs = Date.now() - t0;
  checks.ok(
    during.status === 503 && during.body?.error?.code === 'unavailable' && !!during.headers.get('retry-after'),
    `an approval while Temporal was down answered ${during.status} ${JSON.stringify(during.body)} (want 503 unavailable with Retry-After)`,
  );
  const ready = await request(`${env.api.url}/readyz`, { timeoutMs: 10_000 }).catch(() => ({ status: 0 }));
  checks.ok(ready.status === 503, `/readyz answered ${ready.status} while Temporal was down (want 503)`);
  await sleep(Math.max(0, OUTAGE_MS - (Date.now() - downAt)));
  await serviceScript('temporal', 'start');
  const outage = Date.now() - downAt;

  // Approvals right after the restart, as a well-behaved client sends them: a 503 is retried after
  // its Retry-After (the API's Temporal connection may still be reconnecting), anything else is final.
  const refused: string[] = [];
  let retried = 0;
  for (const id of ids) {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const res = await request(`${env.api.url}/v1/runs/${id}/approve`, {
        headers: ws.auth(),
        json: { approved: true },
      });
      if (res.status === 503 && Date.now() < deadline) {
        retried++;
        await sleep(Number(res.headers.get('retry-after') ?? 1) * 1000);
        continue;
      }
      if (res.status !== 202) refused.push(`${id}: ${res.status} ${JSON.stringify(res.body)}`);
      break;
    }
  }
  checks.ok(refused.length === 0, `${refused.length} approvals after the restart were refused: ${refused[0]}`);
  runs = await waitForRuns(env, ws, ids, (r) => TERMINAL.includes(r.status), 120_000);
  const finished = ids.filter((id) => runs.get(id)?.status === 'succeeded').length;
  checks.ok(
    finished === RUNS,
    `${finished}/${RUNS} runs succeeded after the restart (others: ${ids
      .filter((id) => runs.get(id)?.status !== 'succeeded')
      .map((id) => runs.get(id)?.status)
      .join(', ')})`,
  );
  checks.ok(
    env.worker.alive() && env.worker.child.pid === workerPid,
    'the worker process did not survive the Temporal restart',
  );
  checks.ok(env.api.alive() && env.api.child.pid === apiPid, 'the API process did not survive the Temporal restart');
  // And the service takes new work again.
  const after = await createRun(env, ws, await scriptedAgent(env, ws), { script: [{ final: { after: true } }] });
  const afterRuns = await waitForRuns(env, ws, [after.id], (r) => TERMINAL.includes(r.status), 60_000);
  checks.ok(
    afterRuns.get(after.id)?.status === 'succeeded',
    `a new run after the restart ended ${afterRuns.get(after.id)?.status}`,
  );
  await expectStatus(200, `${env.api.url}/readyz`);
  return `Temporal down ${Math.round(outage / 1000)} s; approval during the outage → ${during.status} in ${duringMs} ms; ${retried} approvals retried after a 503 once it was back; ${finished}/${RUNS} approved runs succeeded after the restart; same API and worker processes`;
}
