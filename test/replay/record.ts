import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Payload, PayloadCodec } from '@temporalio/common';
import { loadConfig } from '../../platform/config';
import { createPayloadCodec } from '../../platform/payloadCodec';
import { phoneCallWorkflow } from '../../workflows/phoneCall';
import { savedTableRefreshWorkflow } from '../../workflows/savedTableRefresh';
import { saveOutputWorkflow } from '../../workflows/outputDelivery';
import { retentionWorkflow } from '../../workflows/retentionWorkflow';
import { webhookTaskQueue } from '../../workflows/taskQueues';
import { SvcWorkspaceId } from '../../workflows/searchAttributes';
import { conversationWorkflowId } from '../../workflows/conversationMessages';
import { runWorkflowId } from '../../workflows/messages';
import type { Harness } from '../helpers/harness';
import { addMember, bearer, createKey, setPlan, signUp } from '../helpers/factories';
import { startReceiver } from '../helpers/receiver';
import { createAgent, createRun, waitForStatus } from '../helpers/runs';
import { startRunStack, testTaskQueue } from '../helpers/worker';
import { historyToJSON } from './historyJson';
import { createFlow, runFlow, waitForFlowRun } from '../flows/helpers';
import { pollUntil } from '../helpers/poll';

const FLOW_SCOPES = [
  'flows:read',
  'flows:manage',
  'agents:read',
  'agents:write',
  'runs:read',
  'runs:write',
  'webhooks:manage',
] as const;

/**
 * Records the replay fixtures in test/replay/histories/: finished histories of the workflow code as
 * it is now, made by the real API and worker against the services `npm test` starts. Not part of the
 * suite (its name does not end in `.test.ts`); run it on purpose, as test/replay/README.md says:
 *
 *   SVC_SKIP_INSTALL=1 npm test -- --testMatch '<rootDir>/test/replay/record.ts'
 */
const OUT = path.join(__dirname, 'histories');
/** REPLAY_TAG=v2 writes `run-model-failed.v2.json` etc., keeping the histories of the code deployed before. */
const TAG = process.env.REPLAY_TAG ? `.${process.env.REPLAY_TAG}` : '';

/** Whether `value` is a Temporal payload (`{ metadata: { encoding }, data }`) of a fetched history. */
const isPayload = (value: object): value is Payload =>
  'metadata' in value && typeof value.metadata === 'object' && value.metadata !== null && 'encoding' in value.metadata;

/**
 * Decodes, in place, every payload of a fetched history that the payload codec encrypted
 * (platform/payloadCodec.ts): the fixtures hold what the workflow code sees, so the replay needs no key
 * (the key of a test run is thrown away with it).
 */
async function decodePayloads(node: unknown, codec: PayloadCodec): Promise<void> {
  if (typeof node !== 'object' || node === null || ArrayBuffer.isView(node)) return;
  for (const [key, value] of Object.entries(node)) {
    if (typeof value === 'object' && value !== null && !ArrayBuffer.isView(value) && isPayload(value)) {
      const [plain] = await codec.decode([value]);
      (node as Record<string, unknown>)[key] = plain;
    } else {
      await decodePayloads(value, codec);
    }
  }
}

describe('record workflow histories for the replay test', () => {
  let h: Harness;
  let stop: () => Promise<void>;
  let auth: Record<string, string>;

  beforeAll(async () => {
    // Private addresses allowed, so the receiver on 127.0.0.1 gets deliveries and the tool call reaches it;
    // two turns per conversation workflow run, so a conversation of three messages crosses continue-as-new.
    // Payloads in the clear (no codec): the replay test reads them without a key, and each test run's
    // secrets key is thrown away.
    const { conversations, temporal } = loadConfig(process.env);
    ({ h, stop } = await startRunStack({
      allowPrivateWebhooks: true,
      allowPrivateEgress: true,
      conversations: { ...conversations, turnsPerRun: 2 },
      temporal: { ...temporal, taskQueue: testTaskQueue(), payloadKeys: undefined },
    }));
    mkdirSync(OUT, { recursive: true });
  }, 120_000);
  afterAll(() => stop?.());

  beforeEach(async () => {
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    auth = bearer(
      await createKey(h, owner, ['runs:read', 'runs:write', 'agents:read', 'agents:write', 'webhooks:manage']),
    );
  });

  const signUpScale = async () => {
    const account = await signUp(h);
    await setPlan(h, account.workspaceId, 'scale');
    return { account };
  };

  const post = async (url: string, json?: unknown) => {
    const res = await h.request(url, { method: 'POST', headers: auth, json });
    if (res.status !== 202) throw new Error(`POST ${url}: ${res.status} ${await res.text()}`);
  };

  /**
   * Fetches a workflow's history (of `runId`, else its latest run) and writes it as `<name>.json`, in
   * Temporal's JSON history format: once the workflow closed, or as it is now with `open`.
   */
  const save = async (
    name: string,
    workflowId: string,
    { open = false, runId }: { open?: boolean; runId?: string } = {},
  ) => {
    const handle = h.temporal.client.workflow.getHandle(workflowId, runId);
    if (!open) await handle.result().catch(() => undefined);
    const history = await handle.fetchHistory();
    await decodePayloads(history, createPayloadCodec(h.config.secretKeys!));
    writeFileSync(path.join(OUT, `${name}${TAG}.json`), historyToJSON(history));
  };

  /** The id of the one workflow of `type` whose id contains `part` (visibility lags a little). */
  const findWorkflow = async (type: string, part: string): Promise<string> => {
    const closed = async () => {
      for await (const wf of h.temporal.client.workflow.list({ query: `WorkflowType = '${type}'` })) {
        if (wf.workflowId.includes(part) && wf.status.name !== 'RUNNING') return wf.workflowId;
      }
      return undefined;
    };
    return (await pollUntil(20_000, closed, Boolean, `a closed ${type} workflow with ${part} in its id`))!;
  };

  it('a run through every gate: input, tool approval, output approval, review with a correction', async () => {
    const rx = await startReceiver();
    try {
      const agent = await createAgent(h, auth, {
        presetId: 'scripted',
        settings: { approval: 'before_output', approvalTools: ['http_request'], review: true },
      });
      const run = await createRun(h, auth, {
        agentId: agent.id,
        input: {
          script: [{ ask: 'What is your name?' }, { tool: 'http_request', args: { url: rx.url } }, { final: 'Hi' }],
        },
      });
      await waitForStatus(h, auth, run.id, 'needs_input');
      await post(`/v1/runs/${run.id}/input`, { answer: 'Ada' });
      const tool = await waitForStatus(h, auth, run.id, 'needs_approval');
      if (tool.pendingAction.tool !== 'http_request') throw new Error('expected the tool approval first');
      await post(`/v1/runs/${run.id}/approve`, { approved: true, actionId: tool.pendingAction.id });
      const output = await waitForStatus(
        h,
        auth,
        run.id,
        (r) => r.status === 'needs_approval' && r.pendingAction.id !== tool.pendingAction.id,
      );
      await post(`/v1/runs/${run.id}/approve`, { approved: true, actionId: output.pendingAction.id });
      await waitForStatus(h, auth, run.id, 'needs_review');
      await post(`/v1/runs/${run.id}/review`, { accept: true, correctedOutput: 'Hi, Ada' });
      await waitForStatus(h, auth, run.id, 'succeeded');
      await save('run-all-gates-succeeded', runWorkflowId(run.id));
    } finally {
      await rx.close();
    }
  });

  it('a tutor conversation: three turns (child runs) across a continue-as-new, then ended on request', async () => {
    const agent = await createAgent(h, auth, {});
    const send = async (url: string, json?: unknown) => {
      const res = await h.request(url, { method: 'POST', headers: auth, json });
      if (res.status >= 300) throw new Error(`POST ${url}: ${res.status} ${await res.text()}`);
      return res.json();
    };
    const session = await send('/v1/tutor/sessions', { agentId: agent.id, topic: 'replay' });
    await send(`/v1/tutor/sessions/${session.id}/messages`, { text: 'one' });
    await send(`/v1/tutor/sessions/${session.id}/messages`, { text: 'two' });
    await send(`/v1/tutor/sessions/${session.id}/messages`, { text: 'three' });
    await send(`/v1/tutor/sessions/${session.id}/end`);
    const workflowId = conversationWorkflowId(session.id);
    await save('conversation-ended-after-continue-as-new', workflowId);
    const last = await h.temporal.client.workflow.getHandle(workflowId).fetchHistory();
    const first = last.events?.[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId;
    if (!first) throw new Error('the conversation did not continue as new');
    await save('conversation-continued-as-new', workflowId, { runId: first });
  });

  it('a run still waiting at a gate: new code taking over a run in flight', async () => {
    const agent = await createAgent(h, auth, { presetId: 'scripted' });
    const run = await createRun(h, auth, { agentId: agent.id, input: { script: [{ ask: 'Anyone?' }] } });
    await waitForStatus(h, auth, run.id, 'needs_input');
    await save('run-waiting-at-gate', runWorkflowId(run.id), { open: true });
    await post(`/v1/runs/${run.id}/cancel`);
    await waitForStatus(h, auth, run.id, 'cancelled');
  });

  it('an eval run of one case (its run a child workflow), scored', async () => {
    const agent = await createAgent(h, auth, { modelId: 'builtin/echo' });
    const call = async (url: string, json: unknown, status: number) => {
      const res = await h.request(url, { method: 'POST', headers: auth, json });
      if (res.status !== status) throw new Error(`POST ${url}: ${res.status} ${await res.text()}`);
      return res.json();
    };
    const evaluation = await call(
      `/v1/agents/${agent.id}/evals`,
      { name: 'e', cases: [{ input: { q: 'hello' }, expected: 'hello', scorer: 'contains' }] },
      201,
    );
    const started = await call(`/v1/evals/${evaluation.id}/runs`, {}, 202);
    await save('eval-one-case', `eval-${started.id}`);
  });

  it('a phone call the provider never takes, and a refresh of a saved table that is gone', async () => {
    // Started directly: their activities run for real and find no such call or table, so each history
    // has the command sequence of a workflow that ends (the call failed, the refresh done).
    const { account } = await signUpScale();
    const typedSearchAttributes = [{ key: SvcWorkspaceId, value: account.workspaceId }];
    const taskQueue = h.config.temporal.taskQueue;
    const call = await h.temporal.client.workflow.start(phoneCallWorkflow, {
      workflowId: `phone-call-${randomUUID()}`,
      taskQueue,
      args: [{ callId: randomUUID() }],
      typedSearchAttributes,
    });
    await save('phone-call-failed', call.workflowId);
    const refresh = await h.temporal.client.workflow.start(savedTableRefreshWorkflow, {
      workflowId: `saved-table-${randomUUID()}`,
      taskQueue,
      args: [{ savedTableId: randomUUID() }],
      typedSearchAttributes,
    });
    await save('saved-table-refresh', refresh.workflowId);
  });

  it('an output saved to an http connection by saveOutputWorkflow, delivered at the first attempt', async () => {
    // Started directly, as a caller outside a run would: records the delivery, then its signed attempt.
    const rx = await startReceiver();
    try {
      const { account } = await signUpScale();
      const key = bearer(await createKey(h, account, ['webhooks:manage']));
      const conn = await h.request('/v1/output-connections', {
        method: 'POST',
        headers: key,
        json: { name: 'sink', type: 'http', url: rx.url, secret: 's'.repeat(16) },
      });
      if (conn.status !== 201) throw new Error(`connection failed: ${conn.status} ${await conn.text()}`);
      const connectionId = ((await conn.json()) as { id: string }).id;
      const flowRunId = randomUUID();
      const taskQueue = h.config.temporal.taskQueue;
      const saved = await h.temporal.client.workflow.start(saveOutputWorkflow, {
        workflowId: `save-output-${randomUUID()}`,
        taskQueue,
        args: [
          {
            deliveryQueue: webhookTaskQueue(taskQueue),
            workspaceId: account.workspaceId,
            connectionId,
            output: { rows: 3 },
            flowRunId,
            key: `flow-run:${flowRunId}:save`,
          },
        ],
        typedSearchAttributes: [{ key: SvcWorkspaceId, value: account.workspaceId }],
      });
      await save('save-output-delivered', saved.workflowId);
    } finally {
      await rx.close();
    }
  });

  it('a retention sweep over every table', async () => {
    // Started directly, as its daily schedule would; its activities delete whatever is past its days.
    const sweep = await h.temporal.client.workflow.start(retentionWorkflow, {
      workflowId: `retention-${randomUUID()}`,
      taskQueue: h.config.temporal.taskQueue,
      args: [{}],
    });
    await save('retention-sweep', sweep.workflowId);
  });

  it('a run whose conversation is stored: a question, its answer, a tool call, the output', async () => {
    const rx = await startReceiver();
    try {
      const agent = await createAgent(h, auth, { presetId: 'scripted' });
      const run = await createRun(h, auth, {
        agentId: agent.id,
        input: { script: [{ ask: 'What is your name?' }, { tool: 'http_request', args: { url: rx.url } }] },
      });
      const asked = await waitForStatus(h, auth, run.id, 'needs_input');
      await post(`/v1/runs/${run.id}/input`, { answer: 'Ada', actionId: asked.pendingAction.id });
      await waitForStatus(h, auth, run.id, 'succeeded');
      await save('run-conversation-stored', runWorkflowId(run.id));
    } finally {
      await rx.close();
    }
  });

  it('a run cancelled while it waits in needs_input', async () => {
    const agent = await createAgent(h, auth, { presetId: 'scripted' });
    const run = await createRun(h, auth, { agentId: agent.id, input: { script: [{ ask: 'Still there?' }] } });
    await waitForStatus(h, auth, run.id, 'needs_input');
    await post(`/v1/runs/${run.id}/cancel`);
    await waitForStatus(h, auth, run.id, 'cancelled');
    await save('run-cancelled-in-needs-input', runWorkflowId(run.id));
  });

  it('a run the script fails', async () => {
    const agent = await createAgent(h, auth, { presetId: 'scripted' });
    const run = await createRun(h, auth, { agentId: agent.id, input: { script: [{ fail: 'model gave up' }] } });
    await waitForStatus(h, auth, run.id, 'failed');
    await save('run-model-failed', runWorkflowId(run.id));
  });

  it('a run whose output approval is refused', async () => {
    const agent = await createAgent(h, auth, { presetId: 'scripted', settings: { approval: 'before_output' } });
    const run = await createRun(h, auth, { agentId: agent.id, input: { script: [{ final: { x: 1 } }] } });
    await waitForStatus(h, auth, run.id, 'needs_approval');
    await post(`/v1/runs/${run.id}/approve`, { approved: false, comment: 'no' });
    await waitForStatus(h, auth, run.id, 'failed');
    await save('run-approval-rejected', runWorkflowId(run.id));
  });

  it('a run whose output approval has a policy: one approval, a reminder, an escalation, the second approval', async () => {
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    const ownerAuth = bearer(await createKey(h, owner, ['runs:read', 'runs:write', 'agents:read', 'agents:write']));
    const admin = await signUp(h);
    await addMember(h, admin.userId, owner.workspaceId, 'admin');
    const agent = await createAgent(h, ownerAuth, {
      presetId: 'scripted',
      settings: {
        approval: 'before_output',
        approvalPolicy: {
          approvers: { roles: ['admin'] },
          required: 2,
          forbidSelfApproval: false,
          expiresAfter: 'PT3S',
          onExpiry: 'escalate',
          escalateTo: { roles: ['owner'] },
          remindAfter: 'PT2S',
        },
      },
    });
    const run = await createRun(h, ownerAuth, { agentId: agent.id, input: { script: [{ final: { x: 1 } }] } });
    await waitForStatus(h, ownerAuth, run.id, 'needs_approval');
    const answer = async (cookie: string) => {
      const res = await h.request(`/v1/runs/${run.id}/approve`, {
        method: 'POST',
        headers: { cookie, 'x-workspace-id': owner.workspaceId },
        json: { approved: true },
      });
      if (res.status !== 202) throw new Error(`approve: ${res.status} ${await res.text()}`);
    };
    await answer(admin.cookie);
    await waitForStatus(h, ownerAuth, run.id, (r) => r.pendingAction?.escalated === true, 20_000);
    await answer(owner.cookie);
    await waitForStatus(h, ownerAuth, run.id, 'succeeded');
    await save('run-approval-policy-escalated', runWorkflowId(run.id));
  }, 60_000);

  it('a flow approval step under a policy: one approval, a reminder, an escalation, the second approval', async () => {
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    const admin = await signUp(h);
    await addMember(h, admin.userId, owner.workspaceId, 'admin');
    const session = (a: { cookie: string }) => ({ cookie: a.cookie, 'x-workspace-id': owner.workspaceId });
    const approvalPolicy = {
      approvers: { roles: ['admin'] },
      required: 2,
      forbidSelfApproval: false,
      expiresAfter: 'PT3S',
      onExpiry: 'escalate',
      escalateTo: { roles: ['owner'] },
      remindAfter: 'PT2S',
    };
    const flow = await createFlow(h, session(owner), {
      steps: [{ name: 'ok', type: 'approval', message: 'Go?', approvalPolicy }],
    });
    const run = await runFlow(h, session(owner), flow.id);
    await waitForFlowRun(h, session(owner), run.id, 'waiting_approval');
    const answer = async (who: { cookie: string }) => {
      const res = await h.request(`/v1/flow-runs/${run.id}/approval`, {
        method: 'POST',
        headers: session(who),
        json: { approved: true },
      });
      if (res.status !== 202) throw new Error(`approval: ${res.status} ${await res.text()}`);
    };
    await answer(admin);
    await waitForFlowRun(h, session(owner), run.id, (r) => r.pendingApproval?.escalated === true, 20_000);
    await answer(owner);
    await waitForFlowRun(h, session(owner), run.id, 'succeeded');
    await save('flow-approval-policy-escalated', `flow-${run.id}`);
  }, 60_000);

  it("a run's announcement to two subscribers, one failing all 3 attempts, then its redelivery", async () => {
    const ok = await startReceiver();
    // 503 to the 3 attempts of the fan-out, 200 to the redelivery
    const flaky = await startReceiver((n, _req, res) => {
      res.statusCode = n < 3 ? 503 : 200;
      res.end();
    });
    try {
      const subscribe = async (url: string) => {
        const res = await h.request('/v1/webhooks', {
          method: 'POST',
          headers: auth,
          json: { url, events: ['run.succeeded'], secret: 'whsec-0123456789abcdef' },
        });
        if (res.status !== 201) throw new Error(`subscription failed: ${res.status} ${await res.text()}`);
        return (await res.json()) as { id: string };
      };
      await subscribe(ok.url);
      const sub = await subscribe(flaky.url);
      const agent = await createAgent(h, auth, { presetId: 'general-assistant' });
      const run = await createRun(h, auth, { agentId: agent.id, input: { hello: 'world' } });
      await waitForStatus(h, auth, run.id, 'succeeded');
      // The run delivers its own announcements (histories before: `webhook-fanout`, a workflow of their own).
      await save('run-announced-to-two', runWorkflowId(run.id));

      const [failed] = (await (await h.request(`/v1/webhooks/${sub.id}/deliveries`, { headers: auth })).json())
        .deliveries;
      if (failed.status !== 'failed') throw new Error(`expected a failed delivery, got ${failed.status}`);
      await post(`/v1/webhooks/${sub.id}/deliveries/${failed.id}/redeliver`);
      await pollUntil(20_000, () => flaky.received.length === 4, Boolean, 'the redelivery');
      await save('webhook-redelivery', await findWorkflow('webhookDeliveryWorkflow', failed.id));
    } finally {
      await ok.close();
      await flaky.close();
    }
  });

  it('a flow run through every step kind, and one cancelled while its agent step waits', async () => {
    const rx = await startReceiver();
    try {
      const key = bearer(await createKey(h, (await signUpScale()).account, [...FLOW_SCOPES]));
      const agent = await createAgent(h, key, { presetId: 'scripted' });
      const conn = await h.request('/v1/output-connections', {
        method: 'POST',
        headers: key,
        json: { name: 'sink', type: 'http', url: rx.url, secret: 's'.repeat(16) },
      });
      const connectionId = ((await conn.json()) as { id: string }).id;
      const hook = await h.request('/v1/webhooks', {
        method: 'POST',
        headers: key,
        json: { url: rx.url, events: ['run.needs_input'], secret: 'whsec-0123456789abcdef' },
      });
      if (hook.status !== 201) throw new Error(`subscription failed: ${hook.status} ${await hook.text()}`);
      const flow = await createFlow(h, key, {
        steps: [
          {
            name: 'ask',
            type: 'agent',
            agentId: agent.id,
            input: { script: [{ ask: 'Who?' }, { final: { who: 'x' } }] },
          },
          { name: 'check', type: 'condition', if: { path: 'steps.ask.output.who', op: 'exists' }, else: 'stop' },
          { name: 'wait', type: 'delay', seconds: 1 },
          { name: 'ok', type: 'approval', message: 'Send {{steps.ask.output.who}}?' },
          { name: 'post', type: 'http', method: 'POST', url: rx.url, body: '{{steps.ask.output}}' },
          { name: 'save', type: 'save_output', connectionId, from: 'steps.ask.output' },
        ],
      });
      const run = await runFlow(h, key, flow.id, { n: 1 });
      const asking = await waitForFlowRun(h, key, run.id, (r) => Boolean(r.steps[0].runId));
      await waitForStatus(h, key, asking.steps[0].runId, 'needs_input');
      await h.request(`/v1/runs/${asking.steps[0].runId}/input`, {
        method: 'POST',
        headers: key,
        json: { answer: 'Ada' },
      });
      await waitForFlowRun(h, key, run.id, 'waiting_approval');
      await h.request(`/v1/flow-runs/${run.id}/approval`, { method: 'POST', headers: key, json: { approved: true } });
      await waitForFlowRun(h, key, run.id, 'succeeded');
      await save('flow-all-steps', `flow-${run.id}`);
      // The child run's own announcement went through a fan-out workflow (a child run's parent waits for it).
      await save('webhook-fanout-of-child-run', await findWorkflow('webhookFanoutWorkflow', asking.steps[0].runId));

      const cancelled = await runFlow(h, key, flow.id, { n: 2 });
      const second = await waitForFlowRun(h, key, cancelled.id, (r) => Boolean(r.steps[0].runId));
      await waitForStatus(h, key, second.steps[0].runId, 'needs_input');
      await h.request(`/v1/flow-runs/${cancelled.id}/cancel`, { method: 'POST', headers: key });
      await waitForFlowRun(h, key, cancelled.id, 'cancelled');
      await save('flow-cancelled-in-agent-step', `flow-${cancelled.id}`);

      // A scheduled flow: the schedule's tick workflow makes the flow run and starts its workflow.
      const scheduled = await createFlow(h, key, {
        trigger: { type: 'schedule', cron: '0 9 * * 1-5' },
        steps: [{ name: 'wait', type: 'delay', seconds: 1 }],
      });
      await h.temporal.client.schedule.getHandle(`flow-schedule-${scheduled.id}`).trigger();
      await save('flow-schedule-tick', await findWorkflow('flowScheduleWorkflow', `flow-tick-${scheduled.id}`));

      // A run whose agent saves its output to the connection: its success starts the run's output deliveries.
      const saver = await createAgent(h, key, { presetId: 'scripted', settings: { saveOutput: [connectionId] } });
      const saved = await createRun(h, key, { agentId: saver.id, input: { script: [{ final: { saved: true } }] } });
      await waitForStatus(h, key, saved.id, 'succeeded');
      await save('run-outputs-delivered', await findWorkflow('runOutputsWorkflow', saved.id));
      const deliveries = await pollUntil(
        20_000,
        async () =>
          (await (await h.request(`/v1/output-connections/${connectionId}/deliveries`, { headers: key })).json())
            .deliveries ?? [],
        (list: Array<{ id: string; status: string }>) => list.some((d) => d.status !== 'pending'),
      );
      const delivery = deliveries.find((d) => d.status !== 'pending')!;
      await h.request(`/v1/output-connections/${connectionId}/deliveries/${delivery.id}/redeliver`, {
        method: 'POST',
        headers: key,
      });
      await save('output-redelivery', await findWorkflow('outputRedeliveryWorkflow', delivery.id));
    } finally {
      await rx.close();
    }
  });
});
