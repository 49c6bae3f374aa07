import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTemporal, type Temporal } from '../../platform/temporal';
import { SvcAgentId, SvcRunStatus, SvcWorkspaceId } from '../../workflows/searchAttributes';
import { startApi, type Harness } from '../helpers/harness';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import { createAgent, createRun, waitForStatus } from '../helpers/runs';
import { startWorker, testTaskQueue, type RunningWorker } from '../helpers/worker';
import { pollUntil } from '../helpers/poll';

// Cancel reaching an in-flight model call; search attributes an operator filters on in Temporal UI.
describe('runs on the Temporal side', () => {
  let h: Harness;
  let worker: RunningWorker;
  let temporal: Temporal;
  let auth: Record<string, string>;
  let workspaceId: string;
  let modelServer: http.Server;
  const requests: Array<{ closed: boolean }> = [];
  let overloaded = 0;

  beforeAll(async () => {
    // an OpenAI-compatible endpoint: it answers a run whose input says "answer-me", is overloaded (503)
    // for "overload-me", and hangs on any other
    modelServer = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString();
        if (body.includes('overload-me')) {
          overloaded++;
          res.statusCode = 503;
          res.end('{"error":{"message":"overloaded"}}');
          return;
        }
        if (body.includes('answer-me')) {
          res.setHeader('content-type', 'application/json');
          res.end(
            JSON.stringify({
              choices: [{ message: { role: 'assistant', content: '{"answer":42}' }, finish_reason: 'stop' }],
              usage: { prompt_tokens: 1000, completion_tokens: 500 },
            }),
          );
          return;
        }
        const seen = { closed: false };
        requests.push(seen);
        req.socket.on('close', () => (seen.closed = true));
      });
    });
    await new Promise<void>((r) => modelServer.listen(0, '127.0.0.1', r));
    const base = await startApi();
    const config = {
      ...base.config,
      temporal: { ...base.config.temporal, taskQueue: testTaskQueue() },
      openai: {
        ...base.config.openai,
        baseUrl: `http://127.0.0.1:${(modelServer.address() as AddressInfo).port}/v1`,
        apiKey: 'sk-test',
        models: [{ name: 'slow', inputPerMTokUsd: 2, outputPerMTokUsd: 10 }],
      },
    };
    await base.close();
    h = await startApi(config);
    worker = await startWorker(h.config, h.orm);
    temporal = createTemporal(h.config.temporal);
    const owner = await signUp(h);
    workspaceId = owner.workspaceId;
    await setPlan(h, owner.workspaceId, 'scale');
    auth = bearer(await createKey(h, owner, ['runs:read', 'runs:write', 'agents:write']));
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    await temporal?.close();
    await h?.close();
    modelServer?.closeAllConnections();
    modelServer?.close();
  });

  it('cancels a run in the middle of a model call and aborts the call', async () => {
    const agent = await createAgent(h, auth, { name: 'slow', modelId: 'openai/slow' });
    const run = await createRun(h, auth, { agentId: agent.id, input: { q: 'hello' } });
    await waitForStatus(h, auth, run.id, 'running');
    await pollUntil(20_000, () => requests.length > 0, Boolean, 'the model call');
    expect(requests).toHaveLength(1);
    const cancelled = await h.request(`/v1/runs/${run.id}/cancel`, { method: 'POST', headers: auth });
    expect(cancelled.status).toBe(202);
    const done = await waitForStatus(h, auth, run.id, 'cancelled', 20_000);
    expect(done.completedAt).not.toBeNull();
    await pollUntil(10_000, () => requests[0].closed, Boolean, 'the aborted model call');
    expect(requests[0].closed).toBe(true);
  });

  it('keeps SvcWorkspaceId, SvcAgentId and SvcRunStatus current for Temporal UI filters', async () => {
    const agent = await createAgent(h, auth, { presetId: 'general-assistant' });
    const run = await createRun(h, auth, { agentId: agent.id, input: {} });
    await waitForStatus(h, auth, run.id, 'succeeded');
    const handle = temporal.client.workflow.getHandle(`run-${run.id}`);
    // The run's row says succeeded as soon as the final local activity commits, a moment before the
    // workflow task that upserts the attribute completes: Temporal UI shows it once the workflow closed.
    await handle.result();
    const description = await handle.describe();
    expect(description.taskQueue).toBe(h.config.temporal.taskQueue);
    expect(description.typedSearchAttributes.get(SvcWorkspaceId)).toBe(workspaceId);
    expect(description.typedSearchAttributes.get(SvcAgentId)).toBe(agent.id);
    expect(description.typedSearchAttributes.get(SvcRunStatus)).toBe('succeeded');
    // and the visibility query an operator types finds it
    const query = `SvcWorkspaceId = "${workspaceId}" AND SvcRunStatus = "succeeded" AND WorkflowId = "run-${run.id}"`;
    const listed = async () => {
      const ids: string[] = [];
      for await (const wf of temporal.client.workflow.list({ query })) ids.push(wf.workflowId);
      return ids;
    };
    const found = await pollUntil(10_000, listed, (ids) => ids.length > 0, 'the visibility query');
    expect(found).toEqual([`run-${run.id}`]);

    // A run waiting at a gate shows it (the operator's `SvcRunStatus = "needs_input"`), then its end.
    const scripted = await createAgent(h, auth, { presetId: 'scripted' });
    const gated = await createRun(h, auth, { agentId: scripted.id, input: { script: [{ ask: 'q' }] } });
    await waitForStatus(h, auth, gated.id, 'needs_input');
    const gatedHandle = temporal.client.workflow.getHandle(`run-${gated.id}`);
    const shown = await pollUntil(
      10_000,
      async () => (await gatedHandle.describe()).typedSearchAttributes.get(SvcRunStatus),
      (s) => s === 'needs_input',
      'SvcRunStatus needs_input',
    );
    expect(shown).toBe('needs_input');
    const answered = await h.request(`/v1/runs/${gated.id}/input`, {
      method: 'POST',
      headers: auth,
      json: { answer: 1 },
    });
    expect(answered.status).toBe(202);
    await gatedHandle.result();
    expect((await gatedHandle.describe()).typedSearchAttributes.get(SvcRunStatus)).toBe('succeeded');
  });

  it('runs an agent on an OpenAI-compatible model, charging its token prices', async () => {
    const agent = await createAgent(h, auth, { name: 'real', modelId: 'openai/slow' });
    const run = await createRun(h, auth, { agentId: agent.id, input: { q: 'answer-me' } });
    const done = await waitForStatus(h, auth, run.id, 'succeeded');
    expect(done.output).toEqual({ answer: 42 });
    // 1000 input tokens at 2 USD/M + 500 output tokens at 10 USD/M
    expect(done.usage).toEqual({ inputTokens: 1000, outputTokens: 500, costUsd: 0.007 });
  });

  it("runs an in-process model's turn as a local activity, a provider's as an activity with heartbeats", async () => {
    const activitiesOf = async (runId: string) => {
      const handle = temporal.client.workflow.getHandle(`run-${runId}`);
      await handle.result();
      const { events } = await handle.fetchHistory();
      return {
        scheduled: events!.flatMap((e) => e.activityTaskScheduledEventAttributes ?? []),
        workflowTasks: events!.filter((e) => e.workflowTaskCompletedEventAttributes).length,
        // what Temporal writes to its visibility store besides the start and the close, one write each
        upserts: events!.flatMap((e) =>
          Object.keys(e.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields ?? {}),
        ),
      };
    };
    // builtin/echo: beginRun, the turn and finishRun in one workflow task, no activity
    const echo = await createAgent(h, auth, { presetId: 'general-assistant' });
    const local = await createRun(h, auth, { agentId: echo.id, input: { q: 'local' } });
    expect(await waitForStatus(h, auth, local.id, 'succeeded')).toMatchObject({ output: { echo: { q: 'local' } } });
    // no patch marker (one run path, docs/architecture.md "Changing a workflow"); the status is upserted only as
    // it finished (`running` never lasts beyond the one workflow task)
    expect(await activitiesOf(local.id)).toEqual({
      scheduled: [],
      workflowTasks: 1,
      upserts: [SvcRunStatus.name],
    });
    // openai/…: the turn waits on the provider, so it stays an activity that heartbeats
    const real = await createAgent(h, auth, { name: 'remote', modelId: 'openai/slow' });
    const remote = await createRun(h, auth, { agentId: real.id, input: { q: 'answer-me' } });
    await waitForStatus(h, auth, remote.id, 'succeeded');
    const { scheduled } = await activitiesOf(remote.id);
    expect(scheduled.map((a) => a.activityType?.name)).toEqual(['nextTurn']);
    expect(Number(scheduled[0].heartbeatTimeout?.seconds)).toBe(15);
  });

  it('fails a run whose model stays unavailable with agent.model_error, after the retries', async () => {
    const agent = await createAgent(h, auth, { name: 'busy', modelId: 'openai/slow' });
    const run = await createRun(h, auth, { agentId: agent.id, input: { q: 'overload-me' } });
    const done = await waitForStatus(h, auth, run.id, ['succeeded', 'failed'], 60_000);
    expect(done.status).toBe('failed');
    expect(done.error.code).toBe('agent.model_error');
    expect(done.error.message).toMatch(/503/);
    // One request per attempt: the activity's retry policy (3 attempts) is the only retry layer
    expect(overloaded).toBe(3);
  }, 90_000);
});
