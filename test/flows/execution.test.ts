import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import type { Harness } from '../helpers/harness';
import { startReceiver } from '../helpers/receiver';
import { error, ok } from '../helpers/responses';
import { createAgent, waitForStatus } from '../helpers/runs';
import { startRunStack } from '../helpers/worker';
import { createFlow, runFlow, waitForFlowRun } from './helpers';

type Headers = Record<string, string>;

// Flow runs through HTTP with a real worker: each step type, approvals, agent runs waiting on a person,
// cancel (docs/api/flows.md).
describe('flow runs', () => {
  let h: Harness;
  let stop: () => Promise<void>;
  let auth: Headers;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    ({ h, stop } = await startRunStack({ allowPrivateEgress: true, allowPrivateWebhooks: true }));
    const account = await signUp(h);
    await setPlan(h, account.workspaceId, 'scale');
    auth = bearer(
      await createKey(h, account, [
        'flows:read',
        'flows:manage',
        'agents:read',
        'agents:write',
        'runs:read',
        'runs:write',
        'webhooks:manage',
      ]),
    );
    receiver = await startReceiver((n, req, res) => {
      if (req.url?.includes('fail')) res.writeHead(500);
      res.end(JSON.stringify({ n, ok: true }));
    });
  }, 120_000);
  afterAll(async () => {
    await receiver.close();
    await stop();
  });

  it('runs agent, condition, http and delay steps in order, templates reading the trigger and earlier outputs', async () => {
    const agent = await createAgent(h, auth, {});
    const flow = await createFlow(h, auth, {
      steps: [
        { name: 'echo', type: 'agent', agentId: agent.id, input: { text: '{{trigger.text}}', n: '{{trigger.n}}' } },
        {
          name: 'check',
          type: 'condition',
          if: { path: 'steps.echo.output.echo.n', op: 'gt', value: 2 },
          else: 'stop',
        },
        { name: 'pause', type: 'delay', seconds: 1 },
        {
          name: 'post',
          type: 'http',
          method: 'POST',
          url: receiver.url,
          headers: { 'X-Flow': 'said {{steps.echo.output.echo.text}}' },
          body: { said: '{{steps.echo.output.echo}}' },
        },
      ],
    });
    expect(flow).toMatchObject({ status: 'active', trigger: { type: 'manual' }, webhookUrl: null, projectId: null });
    const queued = await runFlow(h, auth, flow.id, { text: 'hi', n: 3 });
    expect(queued).toMatchObject({
      flowId: flow.id,
      status: 'queued',
      trigger: { type: 'manual', input: { text: 'hi', n: 3 } },
    });
    const done = await waitForFlowRun(h, auth, queued.id, ['succeeded', 'failed']);
    expect(done.status).toBe('succeeded');
    expect(done.steps.map((s: any) => [s.name, s.status])).toEqual([
      ['echo', 'succeeded'],
      ['check', 'succeeded'],
      ['pause', 'succeeded'],
      ['post', 'succeeded'],
    ]);
    expect(done.steps[0].output).toEqual({ echo: { text: 'hi', n: 3 } });
    expect(done.steps[1].output).toEqual({ result: true });
    expect(done.steps[3].output).toMatchObject({ status: 200, truncated: false });
    const sent = receiver.received.at(-1)!;
    expect(JSON.parse(sent.raw.toString())).toEqual({ said: { text: 'hi', n: 3 } });
    expect(sent.headers['x-flow']).toBe('said hi');
    expect(done.completedAt).toEqual(expect.any(String));
    // the agent step's run is a real run, charged, visible in the runs list
    const run = await ok(h.request(`/v1/runs/${done.steps[0].runId}`, { headers: auth }), 200);
    expect(run).toMatchObject({
      status: 'succeeded',
      metadata: { flowId: flow.id, flowRunId: done.id, flowStep: 'echo' },
    });
    expect(run.usage.costUsd).toBeGreaterThan(0);
    const { flowRuns } = await ok(h.request(`/v1/flows/${flow.id}/runs`, { headers: auth }), 200);
    expect(flowRuns.map((r: any) => r.id)).toEqual([done.id]);
  });

  it('a false condition stops the flow (succeeded, the rest skipped) or jumps to the step its else names', async () => {
    const flow = await createFlow(h, auth, {
      steps: [
        { name: 'gate', type: 'condition', if: { path: 'trigger.kind', op: 'eq', value: 'go' }, else: 'last' },
        { name: 'middle', type: 'delay', seconds: 1 },
        { name: 'last', type: 'condition', if: { path: 'trigger.tags', op: 'contains', value: 'x' }, else: 'stop' },
        { name: 'never', type: 'http', method: 'GET', url: `${receiver.url}?never` },
      ],
    });
    const run = await runFlow(h, auth, flow.id, { kind: 'stay', tags: ['y'] });
    const done = await waitForFlowRun(h, auth, run.id, ['succeeded', 'failed']);
    expect(done.status).toBe('succeeded');
    expect(done.steps.map((s: any) => s.status)).toEqual(['succeeded', 'skipped', 'succeeded', 'skipped']);
    expect(done.steps[0].output).toEqual({ result: false });
  });

  it('fails the flow run with flow.template_error on a bad reference at run time, and flow.http_error on a non-2xx', async () => {
    const flow = await createFlow(h, auth, {
      steps: [{ name: 'post', type: 'http', method: 'POST', url: '{{trigger.target}}', body: '{{trigger.missing}}' }],
    });
    const bad = await runFlow(h, auth, flow.id, { target: receiver.url });
    const failed = await waitForFlowRun(h, auth, bad.id, ['succeeded', 'failed']);
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'flow.template_error' } });
    expect(failed.steps[0]).toMatchObject({ status: 'failed', error: { code: 'flow.template_error' } });

    const refused = await runFlow(h, auth, flow.id, { target: { __proto__: 1 }, missing: 1 });
    expect((await waitForFlowRun(h, auth, refused.id, ['succeeded', 'failed'])).status).toBe('failed');

    const five = await runFlow(h, auth, flow.id, { target: `${receiver.url}?fail`, missing: 'x' });
    const ended = await waitForFlowRun(h, auth, five.id, ['succeeded', 'failed']);
    expect(ended).toMatchObject({ status: 'failed', error: { code: 'flow.http_error' } });
    expect(ended.steps[0].output).toMatchObject({ status: 500 });
  });

  it('waits in waiting_approval; an approval goes on, a second answer is 409, a rejection fails the flow run', async () => {
    const flow = await createFlow(h, auth, {
      steps: [
        { name: 'ok', type: 'approval', message: 'Send to {{trigger.who}}?' },
        { name: 'after', type: 'delay', seconds: 1 },
      ],
    });
    const run = await runFlow(h, auth, flow.id, { who: 'ops' });
    const waiting = await waitForFlowRun(h, auth, run.id, 'waiting_approval');
    expect(waiting.pendingApproval).toMatchObject({ step: 'ok', message: 'Send to ops?' });
    expect(waiting.steps[0].status).toBe('waiting');
    const answered = await ok(
      h.request(`/v1/flow-runs/${run.id}/approval`, {
        method: 'POST',
        headers: auth,
        json: { approved: true, comment: 'fine' },
      }),
      202,
    );
    expect(answered.id).toBe(run.id);
    await error(
      h.request(`/v1/flow-runs/${run.id}/approval`, { method: 'POST', headers: auth, json: { approved: false } }),
      409,
      'run.invalid_state',
    );
    const done = await waitForFlowRun(h, auth, run.id, ['succeeded', 'failed']);
    expect(done.status).toBe('succeeded');
    expect(done.steps[0].output).toEqual({ message: 'Send to ops?', approved: true, comment: 'fine' });

    const second = await runFlow(h, auth, flow.id, { who: 'ops' });
    await waitForFlowRun(h, auth, second.id, 'waiting_approval');
    await ok(
      h.request(`/v1/flow-runs/${second.id}/approval`, {
        method: 'POST',
        headers: auth,
        json: { approved: false, comment: 'no' },
      }),
      202,
    );
    const rejected = await waitForFlowRun(h, auth, second.id, ['succeeded', 'failed']);
    expect(rejected).toMatchObject({ status: 'failed', error: { code: 'flow.rejected', message: 'no' } });
    expect(rejected.steps.map((s: any) => s.status)).toEqual(['failed', 'skipped']);
    await error(
      h.request(`/v1/flow-runs/${second.id}/approval`, { method: 'POST', headers: auth, json: { approved: true } }),
      409,
      'run.invalid_state',
    );
  });

  it('an agent step whose run asks for input keeps the flow running until a person answers through the runs route', async () => {
    const agent = await createAgent(h, auth, { presetId: 'scripted' });
    const flow = await createFlow(h, auth, {
      steps: [
        {
          name: 'ask',
          type: 'agent',
          agentId: agent.id,
          input: { script: [{ ask: 'Which team?' }, { final: { team: '{{trigger.x}}' } }] },
        },
      ],
    });
    const run = await runFlow(h, auth, flow.id, { x: 'ignored' });
    const running = await waitForFlowRun(h, auth, run.id, (r) => Boolean(r.steps[0].runId));
    const asking = await waitForStatus(h, auth, running.steps[0].runId, 'needs_input');
    expect(asking.pendingAction).toMatchObject({ type: 'input', question: 'Which team?' });
    expect((await ok(h.request(`/v1/flow-runs/${run.id}`, { headers: auth }), 200)).status).toBe('running');
    await ok(
      h.request(`/v1/runs/${asking.id}/input`, { method: 'POST', headers: auth, json: { answer: 'blue' } }),
      202,
    );
    const done = await waitForFlowRun(h, auth, run.id, ['succeeded', 'failed']);
    expect(done.status).toBe('succeeded');
    // the step's input was rendered before the run began: the script's final output carries the trigger's x
    expect(done.steps[0].output).toEqual({ team: 'ignored' });
  });

  it('cancel stops a flow run and its agent run; a finished flow run cannot be cancelled', async () => {
    const agent = await createAgent(h, auth, { presetId: 'scripted' });
    const flow = await createFlow(h, auth, {
      steps: [{ name: 'ask', type: 'agent', agentId: agent.id, input: { script: [{ ask: 'Wait?' }] } }],
    });
    const run = await runFlow(h, auth, flow.id);
    const running = await waitForFlowRun(h, auth, run.id, (r) => Boolean(r.steps[0].runId));
    await waitForStatus(h, auth, running.steps[0].runId, 'needs_input');
    await ok(h.request(`/v1/flow-runs/${run.id}/cancel`, { method: 'POST', headers: auth }), 202);
    const cancelled = await waitForFlowRun(h, auth, run.id, ['cancelled', 'failed', 'succeeded']);
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.steps[0].status).toBe('cancelled');
    await waitForStatus(h, auth, running.steps[0].runId, 'cancelled');
    await error(
      h.request(`/v1/flow-runs/${run.id}/cancel`, { method: 'POST', headers: auth }),
      409,
      'run.invalid_state',
    );

    const delayed = await createFlow(h, auth, { steps: [{ name: 'wait', type: 'delay', seconds: 600 }] });
    const waitRun = await runFlow(h, auth, delayed.id);
    await waitForFlowRun(h, auth, waitRun.id, (r) => r.steps[0].status === 'running');
    await ok(h.request(`/v1/flow-runs/${waitRun.id}/cancel`, { method: 'POST', headers: auth }), 202);
    expect((await waitForFlowRun(h, auth, waitRun.id, ['cancelled', 'failed'])).status).toBe('cancelled');
  });

  it('save_output sends what `from` names to an output connection, once, signed like a webhook', async () => {
    const conn = await ok(
      h.request('/v1/output-connections', {
        method: 'POST',
        headers: auth,
        json: { name: 'sink', type: 'http', url: `${receiver.url}?sink`, secret: 's'.repeat(16) },
      }),
      201,
    );
    const flow = await createFlow(h, auth, {
      steps: [{ name: 'save', type: 'save_output', connectionId: conn.id, from: 'trigger.report' }],
    });
    const before = receiver.received.length;
    const run = await runFlow(h, auth, flow.id, { report: { total: 3 } });
    const done = await waitForFlowRun(h, auth, run.id, ['succeeded', 'failed']);
    expect(done.status).toBe('succeeded');
    expect(done.steps[0].output).toEqual({ deliveryId: expect.any(String), status: 'succeeded' });
    const sent = receiver.received.slice(before);
    expect(sent).toHaveLength(1);
    expect(JSON.parse(sent[0].raw.toString())).toMatchObject({ flowRunId: run.id, output: { total: 3 } });
    expect(sent[0].headers['x-svc-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    // a connection deleted after the flow was saved fails the step
    expect((await h.request(`/v1/output-connections/${conn.id}`, { method: 'DELETE', headers: auth })).status).toBe(
      204,
    );
    const gone = await runFlow(h, auth, flow.id, { report: 1 });
    const failed = await waitForFlowRun(h, auth, gone.id, ['succeeded', 'failed']);
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'flow.save_output_failed' } });
  });

  it('an agent step whose run fails fails the flow run with flow.agent_run_failed', async () => {
    const agent = await createAgent(h, auth, { presetId: 'scripted' });
    const flow = await createFlow(h, auth, {
      steps: [{ name: 'boom', type: 'agent', agentId: agent.id, input: { script: [{ fail: 'nope' }] } }],
    });
    const run = await runFlow(h, auth, flow.id);
    const done = await waitForFlowRun(h, auth, run.id, ['succeeded', 'failed']);
    expect(done).toMatchObject({ status: 'failed', error: { code: 'flow.agent_run_failed' } });
    expect(done.steps[0].runId).toEqual(expect.any(String));
  });
});
