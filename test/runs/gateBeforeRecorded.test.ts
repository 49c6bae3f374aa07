import { spawnWorker } from '../helpers/processes';
import { startApi, type Harness } from '../helpers/harness';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import { createAgent, createRun, waitForStatus } from '../helpers/runs';
import { testTaskQueue } from '../helpers/worker';

/**
 * The read-model writes are local activities (docs/api/runs.md#how-a-run-executes-operators): a gate's
 * status reaches the database inside the workflow task that opens the gate, before Temporal records that
 * task. Here the worker dies right there (kill -9), the person answers the gate the database shows, and the next
 * worker, which handles the answer's signal before it opens the gate again, must still take the answer.
 */
describe('a gate answered before Temporal recorded its opening', () => {
  let h: Harness;
  let auth: Record<string, string>;
  const workerEnv = () => ({
    DATABASE_URL: h.config.databaseUrl,
    TEMPORAL_ADDRESS: h.config.temporal.address,
    TEMPORAL_TASK_QUEUE: h.config.temporal.taskQueue,
  });

  beforeAll(async () => {
    const base = await startApi();
    const config = { ...base.config, temporal: { ...base.config.temporal, taskQueue: testTaskQueue() } };
    await base.close();
    h = await startApi(config);
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    auth = bearer(await createKey(h, owner, ['runs:read', 'runs:write', 'agents:write']));
  });
  afterAll(() => h?.close());

  it('finishes the run with the answer given', async () => {
    const agent = await createAgent(h, auth, { presetId: 'scripted' });
    const first = await spawnWorker(workerEnv(), 'test/runs/fixtures/workerStuckAfterGate.ts');
    const run = await createRun(h, auth, {
      agentId: agent.id,
      input: { script: [{ ask: 'name?' }, { final: { done: true } }] },
    });
    let second: Awaited<ReturnType<typeof spawnWorker>> | undefined;
    try {
      await waitForStatus(h, auth, run.id, 'needs_input');
      const answered = await h.request(`/v1/runs/${run.id}/input`, {
        method: 'POST',
        headers: auth,
        json: { answer: 'Ada' },
      });
      expect(answered.status).toBe(202);
      first.kill9();
      second = await spawnWorker(workerEnv());
      const done = await waitForStatus(h, auth, run.id, ['succeeded', 'failed'], 60_000);
      expect(done.status).toBe('succeeded');
      expect(done.output).toEqual({ done: true });
      // the answer given reached the run: the input step holds it
      const steps = await (await h.request(`/v1/runs/${run.id}/steps`, { headers: auth })).json();
      expect(JSON.stringify(steps)).toContain('Ada');
    } finally {
      first.kill9();
      second?.kill9();
    }
  }, 120_000);
});
