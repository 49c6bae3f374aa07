/**
 * The statement counts of bench/README.md ("Where a run spends its time"): every SQL statement of one
 * `POST /v1/runs` (the API's ORM), one echo run's execution (a separate worker ORM), one
 * `GET /v1/runs/{id}`, and one gate answer (API, then worker), printed. Not part of the suite (jest's
 * roots are test/); run it with
 *   npm test -- --roots '<rootDir>/bench' --testMatch '<rootDir>/bench/statementProbe.ts'
 */
import { startApi, type Harness } from '../test/helpers/harness';
import { bearer, createKey, setPlan, signUp } from '../test/helpers/factories';
import { createAgent, createRun, waitForStatus } from '../test/helpers/runs';
import { startWorker, testTaskQueue, type RunningWorker } from '../test/helpers/worker';
import { loadConfig } from '../platform/config';
import { initOrm, type Orm } from '../db/orm';

type Q = { at: number; sql: string };
function tap(orm: Orm, into: Q[]) {
  const knex = (orm.em as any).getConnection().getKnex();
  knex.on('query', (q: { sql: string }) =>
    into.push({ at: Date.now(), sql: q.sql.replace(/\s+/g, ' ').slice(0, 160) }),
  );
}
const show = (label: string, qs: Q[]) => {
  console.log(`${label}: ${qs.length} statements\n` + qs.map((q) => '  ' + q.sql).join('\n'));
};

describe('probe', () => {
  let h: Harness;
  let worker: RunningWorker;
  let workerOrm: Orm;
  let auth: Record<string, string>;
  const api: Q[] = [];
  const wrk: Q[] = [];
  beforeAll(async () => {
    const base = loadConfig(process.env);
    h = await startApi({ temporal: { ...base.temporal, taskQueue: testTaskQueue() } });
    workerOrm = await initOrm(h.config.databaseUrl, 5);
    worker = await startWorker(h.config, workerOrm);
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    auth = bearer(await createKey(h, owner, ['runs:read', 'runs:write', 'agents:read', 'agents:write']));
    tap(h.orm, api);
    tap(workerOrm, wrk);
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    await workerOrm?.close(true);
    await h?.close();
  });

  it('counts', async () => {
    const agent = await createAgent(h, auth, { presetId: 'general-assistant' });
    const scripted = await createAgent(h, auth, { presetId: 'scripted' });
    // warm: caches, leases
    await waitForStatus(h, auth, (await createRun(h, auth, { agentId: agent.id, input: { a: 0 } })).id, 'succeeded');
    await new Promise((r) => setTimeout(r, 300));
    api.length = 0;
    wrk.length = 0;
    const run = await createRun(h, auth, { agentId: agent.id, input: { a: 1 } });
    await new Promise((r) => setTimeout(r, 50));
    show('POST /v1/runs (API)', api.splice(0));
    await new Promise((r) => setTimeout(r, 1500));
    show('echo run execution (worker)', wrk.splice(0));
    api.length = 0;
    await h.request(`/v1/runs/${run.id}`, { headers: auth });
    show('GET /v1/runs/{id}', api.splice(0));

    const g = await createRun(h, auth, { agentId: scripted.id, input: { script: [{ ask: 'q?' }, { final: 1 }] } });
    const asking = await waitForStatus(h, auth, g.id, 'needs_input');
    await new Promise((r) => setTimeout(r, 500));
    api.length = 0;
    wrk.length = 0;
    await h.request(`/v1/runs/${g.id}/input`, {
      method: 'POST',
      headers: auth,
      json: { answer: 'a', actionId: asking.pendingAction.id },
    });
    show('POST input (API)', api.splice(0));
    await new Promise((r) => setTimeout(r, 1500));
    show('after the answer (worker)', wrk.splice(0));
  }, 60_000);
});
