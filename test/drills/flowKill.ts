import { expectStatus } from '../helpers/live/http';
import { ALL_SCOPES, createKey } from '../helpers/live/accounts';
import { startReceiver } from '../helpers/receiver';
import { Checks, drillWorkspace, scriptedAgent, sleep, startWorker, TERMINAL, type DrillEnv } from './lib';

interface Planned {
  id: string;
  group: 'delay' | 'agent' | 'approval';
}

/**
 * Kill -9 the worker mid-flow (docs/api/flows.md#how-a-flow-runs): 10 flow runs in a delay step, 10 whose
 * agent step's run waits on a person, 5 waiting for an approval. The people answer while no worker runs;
 * a new worker starts. Every flow run must succeed, its workflow closed exactly once as Completed, each
 * agent step backed by exactly one run charged once, and each http step's request sent once.
 */
export async function flowKillDrill(env: DrillEnv, checks: Checks): Promise<string> {
  const ws = await drillWorkspace(env, 200);
  const auth = { authorization: await createKey(env.orm, ws.id, [...ALL_SCOPES, 'flows:read', 'flows:manage']) };
  const receiver = await startReceiver();
  try {
    const agent = await scriptedAgent(env, ws);
    const flow = async (steps: unknown[]) =>
      (await expectStatus(201, `${env.api.url}/v1/flows`, {
        headers: auth,
        json: { name: 'drill', trigger: { type: 'manual' }, steps },
      })) as { id: string };
    const post = { name: 'post', type: 'http', method: 'POST', url: receiver.url, body: { flowRun: '{{trigger.i}}' } };
    const delayFlow = await flow([{ name: 'wait', type: 'delay', seconds: 8 }, post]);
    const agentFlow = await flow([
      { name: 'ask', type: 'agent', agentId: agent, input: { script: [{ ask: 'who?' }, { final: { who: 'drill' } }] } },
      { name: 'after', type: 'delay', seconds: 1 },
      post,
    ]);
    const approvalFlow = await flow([{ name: 'gate', type: 'approval', message: 'go {{trigger.i}}?' }, post]);

    const plan: Planned[] = [];
    const start = async (flowId: string, group: Planned['group'], n: number) => {
      for (let i = 0; i < n; i++) {
        const run = await expectStatus(202, `${env.api.url}/v1/flows/${flowId}/run`, {
          headers: auth,
          json: { input: { i: `${group}-${i}` } },
        });
        plan.push({ id: run.id, group });
      }
    };
    await start(agentFlow.id, 'agent', 10);
    await start(approvalFlow.id, 'approval', 5);
    await start(delayFlow.id, 'delay', 10);

    const get = (id: string) => expectStatus(200, `${env.api.url}/v1/flow-runs/${id}`, { headers: auth });
    const runStatus = (id: string) => expectStatus(200, `${env.api.url}/v1/runs/${id}`, { headers: auth });
    // In flight: the delays running, the agent runs asking, the approvals waiting.
    const agentRuns = new Map<string, string>();
    const deadline = Date.now() + 30_000;
    let ready = 0;
    while (Date.now() < deadline) {
      ready = 0;
      for (const p of plan) {
        const fr = await get(p.id);
        if (p.group === 'delay' && fr.steps[0].status === 'running') ready++;
        if (p.group === 'approval' && fr.status === 'waiting_approval') ready++;
        if (p.group === 'agent' && fr.steps[0].runId) {
          agentRuns.set(p.id, fr.steps[0].runId);
          if ((await runStatus(fr.steps[0].runId)).status === 'needs_input') ready++;
        }
      }
      if (ready === plan.length) break;
      await sleep(300);
    }
    checks.ok(ready === plan.length, `only ${ready}/${plan.length} flow runs in flight before the kill`);

    env.worker.kill9();
    await env.worker.exited;
    // People answer while no worker runs: the API commits the answers, Temporal keeps the signals.
    for (const p of plan) {
      if (p.group === 'approval') {
        await expectStatus(202, `${env.api.url}/v1/flow-runs/${p.id}/approval`, {
          headers: auth,
          json: { approved: true },
        });
      }
      if (p.group === 'agent' && agentRuns.has(p.id)) {
        await expectStatus(202, `${env.api.url}/v1/runs/${agentRuns.get(p.id)}/input`, {
          headers: auth,
          json: { answer: 'Ada' },
        });
      }
    }
    await startWorker(env);

    const ends = new Map<string, any>();
    const endBy = Date.now() + 60_000;
    while (Date.now() < endBy && ends.size < plan.length) {
      for (const p of plan) {
        if (ends.has(p.id)) continue;
        const fr = await get(p.id);
        if (TERMINAL.includes(fr.status)) ends.set(p.id, fr);
      }
      if (ends.size < plan.length) await sleep(500);
    }
    const wrong = plan.filter((p) => ends.get(p.id)?.status !== 'succeeded');
    checks.ok(
      wrong.length === 0,
      `${wrong.length} flow runs did not succeed: ${wrong
        .slice(0, 5)
        .map((p) => `${p.group} ${p.id} is ${ends.get(p.id)?.status ?? 'unfinished'}`)
        .join('; ')}`,
    );

    // Exactly once: one closed workflow per flow run, one run per agent step (charged once), one request per http step.
    let notOnce = 0;
    for (const p of plan) {
      const executions: string[] = [];
      for await (const wf of env.client.workflow.list({ query: `WorkflowId = 'flow-${p.id}'` })) {
        executions.push(wf.status.name);
      }
      if (executions.length !== 1 || executions[0] !== 'COMPLETED') notOnce++;
    }
    checks.ok(notOnce === 0, `${notOnce} flow runs without exactly one completed workflow`);
    const conn = env.orm.em.fork().getConnection();
    const perStep: Array<{ n: number; charges: number }> = await conn.execute(
      `select count(distinct r.id)::int as n,
              (select count(*) from ledger_entries l where l.run_id = any(array_agg(r.id)) and l.kind = 'charge')::int as charges
         from runs r where r.workspace_id = ? and r.metadata->>'flowRunId' is not null
        group by r.metadata->>'flowRunId'`,
      [ws.id],
    );
    const agentSteps = plan.filter((p) => p.group === 'agent').length;
    checks.ok(perStep.length === agentSteps, `${perStep.length} flow runs made agent runs, want ${agentSteps}`);
    checks.ok(
      perStep.every((r) => r.n === 1 && r.charges === 1),
      `agent steps with other than one run charged once: ${JSON.stringify(perStep.filter((r) => r.n !== 1 || r.charges !== 1))}`,
    );
    const posts = receiver.received.map((r) => JSON.parse(r.raw.toString('utf8')).flowRun as string);
    const sentTwice = posts.filter((v, i) => posts.indexOf(v) !== i);
    checks.ok(posts.length === plan.length, `${posts.length} http step requests for ${plan.length} flow runs`);
    checks.ok(sentTwice.length === 0, `http steps sent twice: ${sentTwice.slice(0, 3).join(', ')}`);
    return `${plan.length - wrong.length}/${plan.length} flow runs succeeded (10 in a delay, ${agentRuns.size} in an agent run, 5 awaiting approval at the kill); ${plan.length - notOnce} with exactly one completed workflow; ${posts.length} http requests`;
  } finally {
    await receiver.close();
  }
}
