import { expectStatus } from '../helpers/live/http';
import { Checks, drillWorkspace, scriptedAgent, sleep, startWorker, type DrillEnv } from './lib';

const CASES = 50;

/**
 * Kill -9 the worker in the middle of an eval run of 50 cases (half of them answering a question from
 * the case's answers), start a new worker: the eval run finishes with 50 results, and there are exactly
 * 50 case runs and 50 charges, none made twice by a retried activity (docs/api/evals.md).
 */
export async function evalKillDrill(env: DrillEnv, checks: Checks): Promise<string> {
  const ws = await drillWorkspace(env, 500);
  const agentId = await scriptedAgent(env, ws);
  const cases = Array.from({ length: CASES }, (_, i) =>
    i % 2
      ? { input: { script: [{ ask: 'name?' }, { final: { i } }] }, answers: ['Ada'], expected: { i }, scorer: 'exact' }
      : { input: { script: [{ final: { i } }] }, expected: { i }, scorer: 'exact' },
  );
  const created = await expectStatus(201, `${env.api.url}/v1/agents/${agentId}/evals`, {
    headers: ws.auth(),
    json: { name: 'eval-kill', cases },
  });
  const started = await expectStatus(202, `${env.api.url}/v1/evals/${created.id}/runs`, {
    headers: ws.auth(),
    json: {},
  });
  const get = () => expectStatus(200, `${env.api.url}/v1/eval-runs/${started.id}`, { headers: ws.auth() });

  // Midway: some cases scored, most not.
  let atKill = 0;
  const midway = Date.now() + 60_000;
  while (Date.now() < midway) {
    atKill = (await get()).results.length;
    if (atKill >= 8) break;
    await sleep(100);
  }
  checks.ok(atKill >= 8 && atKill < CASES, `not midway at the kill: ${atKill}/${CASES} cases scored`);
  env.worker.kill9();
  await env.worker.exited;
  await startWorker(env);

  let run: any;
  const deadline = Date.now() + 90_000;
  do {
    run = await get().catch(() => run);
    if (run?.status === 'succeeded' || run?.status === 'failed') break;
    await sleep(500);
  } while (Date.now() < deadline);
  checks.ok(run?.status === 'succeeded', `the eval run ended ${run?.status}`);
  checks.ok(run?.results.length === CASES, `${run?.results.length} results, want ${CASES}`);
  checks.ok(run?.passed === CASES, `${run?.passed} cases passed, want ${CASES}`);
  const indexes = new Set((run?.results ?? []).map((r: { caseIndex: number }) => r.caseIndex));
  checks.ok(indexes.size === CASES, `${indexes.size} distinct case indexes, want ${CASES}`);

  const conn = env.orm.em.fork().getConnection();
  const [{ runs }] = await conn.execute(
    `select count(*)::int as runs from runs where workspace_id = ? and metadata->>'evalRunId' = ?`,
    [ws.id, started.id],
  );
  const [{ charges, charged }] = await conn.execute(
    `select count(*)::int as charges, count(distinct l.run_id)::int as charged
       from ledger_entries l join runs r on r.id = l.run_id
      where l.kind = 'charge' and r.metadata->>'evalRunId' = ?`,
    [started.id],
  );
  checks.ok(runs === CASES, `${runs} case runs, want exactly ${CASES}`);
  checks.ok(charges === CASES && charged === CASES, `${charges} charges of ${charged} runs, want ${CASES} of ${CASES}`);
  return `killed with ${atKill}/${CASES} cases scored; eval run ${run?.status} with ${run?.results.length} results, ${run?.passed} passed; ${runs} case runs, ${charges} charges`;
}
