import { runWorkflowId, stateQuery } from '../../workflows/messages';
import { startApi, type Harness } from '../helpers/harness';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import { createAgent, createRun, waitForStatus } from '../helpers/runs';
import { startRunStack, startWorker, testTaskQueue, type RunningWorker } from '../helpers/worker';
import { pollUntil } from '../helpers/poll';

// Runs over HTTP against real Temporal and PostgreSQL (docs/api/runs.md): every status, every gate, every 409.
describe('run lifecycle', () => {
  let h: Harness;
  let worker: RunningWorker;
  let auth: Record<string, string>;

  beforeAll(async () => {
    ({ h, worker } = await startRunStack());
    const owner = await signUp(h);
    // the tests poll; the scale plan's 1200 requests a minute keep the rate limit out of the way
    await setPlan(h, owner.workspaceId, 'scale');
    auth = bearer(
      await createKey(h, owner, ['runs:read', 'runs:write', 'agents:read', 'agents:write', 'feedback:write']),
    );
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    await h?.close();
  });

  const post = (path: string, json?: unknown) => h.request(path, { method: 'POST', headers: auth, json });

  it('runs builtin/echo to succeeded with the echoed input, usage and steps', async () => {
    const agent = await createAgent(h, auth, { presetId: 'general-assistant' });
    expect(agent).toMatchObject({
      version: 1,
      modelId: 'builtin/echo',
      settings: { approval: 'never', review: false },
    });
    const run = await createRun(h, auth, { agentId: agent.id, input: { hello: 'world' }, metadata: { ticket: 7 } });
    expect(run).toMatchObject({
      status: 'queued',
      agentId: agent.id,
      agentVersion: 1,
      output: null,
      error: null,
      pendingAction: null,
    });
    const done = await waitForStatus(h, auth, run.id, 'succeeded');
    expect(done.output).toEqual({ echo: { hello: 'world' } });
    expect(done.metadata).toEqual({ ticket: 7 });
    expect(done.usage.inputTokens).toBeGreaterThan(0);
    expect(done.usage.outputTokens).toBeGreaterThan(0);
    expect(done.usage.costUsd).toBe(0.001);
    expect(done.startedAt).not.toBeNull();
    expect(done.completedAt).not.toBeNull();
    const output = await (await h.request(`/v1/runs/${run.id}/output`, { headers: auth })).json();
    expect(output).toEqual({ runId: run.id, status: 'succeeded', output: { echo: { hello: 'world' } } });
    const { steps } = await (await h.request(`/v1/runs/${run.id}/steps`, { headers: auth })).json();
    expect(steps).toEqual([expect.objectContaining({ index: 0, type: 'model', status: 'succeeded' })]);
  });

  it('drives a scripted run through needs_input → needs_approval → needs_review → succeeded with a corrected output', async () => {
    const agent = await createAgent(h, auth, {
      presetId: 'scripted',
      settings: { approval: 'before_output', review: true },
    });
    const run = await createRun(h, auth, {
      agentId: agent.id,
      input: { script: [{ ask: 'What is your name?' }, { final: { draft: 'Hello' } }] },
    });
    const asking = await waitForStatus(h, auth, run.id, 'needs_input');
    expect(asking.pendingAction).toEqual({ id: expect.any(String), type: 'input', question: 'What is your name?' });

    // wrong-state calls are 409 run.invalid_state with the status
    for (const [path, body] of [
      ['approve', { approved: true }],
      ['review', { accept: true }],
    ] as const) {
      const res = await post(`/v1/runs/${run.id}/${path}`, body);
      expect(res.status).toBe(409);
      expect((await res.json()).error).toMatchObject({ code: 'run.invalid_state', details: { status: 'needs_input' } });
    }
    // an answer naming another action is stale
    const stale = await post(`/v1/runs/${run.id}/input`, { answer: 'x', actionId: 'not-the-action' });
    expect(stale.status).toBe(409);

    const answered = await post(`/v1/runs/${run.id}/input`, { answer: 'Ada', actionId: asking.pendingAction.id });
    expect(answered.status).toBe(202);
    const again = await post(`/v1/runs/${run.id}/input`, { answer: 'Ada twice', actionId: asking.pendingAction.id });
    expect(again.status).toBe(409);

    const approving = await waitForStatus(h, auth, run.id, 'needs_approval');
    expect(approving.pendingAction).toMatchObject({ type: 'approval', proposedOutput: { draft: 'Hello' } });
    expect((await post(`/v1/runs/${run.id}/approve`, { approved: true })).status).toBe(202);

    const reviewing = await waitForStatus(h, auth, run.id, 'needs_review');
    expect(reviewing.pendingAction).toMatchObject({ type: 'review', proposedOutput: { draft: 'Hello' } });
    expect(
      (await post(`/v1/runs/${run.id}/review`, { accept: true, correctedOutput: { draft: 'Hello, Ada' } })).status,
    ).toBe(202);

    const done = await waitForStatus(h, auth, run.id, 'succeeded');
    expect(done.output).toEqual({ draft: 'Hello, Ada' });
    expect(done.pendingAction).toBeNull();
    const { steps } = await (await h.request(`/v1/runs/${run.id}/steps`, { headers: auth })).json();
    expect(steps.map((s: { type: string }) => s.type)).toEqual(['model', 'input', 'model', 'approval', 'review']);
    expect((await post(`/v1/runs/${run.id}/cancel`)).status).toBe(409);
  });

  it("pages a run's steps in order by index, and refuses a forged steps cursor", async () => {
    const agent = await createAgent(h, auth, { presetId: 'scripted' });
    const run = await createRun(h, auth, { agentId: agent.id, input: { script: [{ ask: 'one?' }, { final: 1 }] } });
    const asking = await waitForStatus(h, auth, run.id, 'needs_input');
    await post(`/v1/runs/${run.id}/input`, { answer: 'a', actionId: asking.pendingAction.id });
    await waitForStatus(h, auth, run.id, 'succeeded');
    const get = async (query: string) => h.request(`/v1/runs/${run.id}/steps?${query}`, { headers: auth });

    const first = await (await get('limit=2')).json();
    expect(first.steps.map((s: { index: number }) => s.index)).toEqual([0, 1]);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await (await get(`limit=2&cursor=${first.nextCursor}`)).json();
    expect(second).toEqual({ steps: [expect.objectContaining({ index: 2, type: 'model' })], nextCursor: null });
    // without a limit one page of up to 100 holds them all
    expect((await (await get('')).json()).steps).toHaveLength(3);

    for (const cursor of [
      'nope',
      Buffer.from('["at",-1]').toString('base64url'),
      Buffer.from('["at",1.5]').toString('base64url'),
    ]) {
      const res = await get(`cursor=${cursor}`);
      expect(res.status).toBe(400);
      expect((await res.json()).error).toMatchObject({ code: 'validation_error' });
    }
  });

  it('ends an exhausted script with every answer, in order', async () => {
    const agent = await createAgent(h, auth, { presetId: 'scripted' });
    const run = await createRun(h, auth, { agentId: agent.id, input: { script: [{ ask: 'one?' }, { ask: 'two?' }] } });
    await waitForStatus(h, auth, run.id, 'needs_input');
    await post(`/v1/runs/${run.id}/input`, { answer: 1 });
    await waitForStatus(h, auth, run.id, (r) => r.status === 'needs_input' && r.pendingAction.question === 'two?');
    await post(`/v1/runs/${run.id}/input`, { answer: { n: 2 } });
    const done = await waitForStatus(h, auth, run.id, 'succeeded');
    expect(done.output).toEqual({ answers: [1, { n: 2 }] });
  });

  it('fails with run.rejected when the approval is refused', async () => {
    const agent = await createAgent(h, auth, { presetId: 'scripted', settings: { approval: 'before_output' } });
    const run = await createRun(h, auth, { agentId: agent.id, input: { script: [{ final: { x: 1 } }] } });
    await waitForStatus(h, auth, run.id, 'needs_approval');
    expect((await post(`/v1/runs/${run.id}/approve`, { approved: false, comment: 'no' })).status).toBe(202);
    const done = await waitForStatus(h, auth, run.id, 'failed');
    expect(done.error).toEqual({ code: 'run.rejected', message: 'no' });
  });

  it('fails with run.review_rejected when the review refuses without a correction', async () => {
    const agent = await createAgent(h, auth, { presetId: 'scripted', settings: { review: true } });
    const run = await createRun(h, auth, { agentId: agent.id, input: { script: [{ final: { x: 1 } }] } });
    await waitForStatus(h, auth, run.id, 'needs_review');
    expect((await post(`/v1/runs/${run.id}/review`, { accept: false })).status).toBe(202);
    const done = await waitForStatus(h, auth, run.id, 'failed');
    expect(done.error.code).toBe('run.review_rejected');
  });

  it('fails with agent.model_error when the script says fail', async () => {
    const agent = await createAgent(h, auth, { presetId: 'scripted' });
    const run = await createRun(h, auth, { agentId: agent.id, input: { script: [{ fail: 'model gave up' }] } });
    const done = await waitForStatus(h, auth, run.id, 'failed');
    expect(done.error).toEqual({ code: 'agent.model_error', message: 'model gave up' });
  });

  it('cancels from needs_input, needs_approval and needs_review, and refuses to cancel twice', async () => {
    const agent = await createAgent(h, auth, {
      presetId: 'scripted',
      settings: { approval: 'before_output', review: true },
    });
    const cases: Array<[string, unknown[], (id: string) => Promise<void>]> = [
      ['needs_input', [{ ask: 'q' }], async () => undefined],
      ['needs_approval', [{ final: 1 }], async () => undefined],
      [
        'needs_review',
        [{ final: 1 }],
        async (id) => {
          await waitForStatus(h, auth, id, 'needs_approval');
          await post(`/v1/runs/${id}/approve`, { approved: true });
        },
      ],
    ];
    for (const [status, script, advance] of cases) {
      const run = await createRun(h, auth, { agentId: agent.id, input: { script } });
      await advance(run.id);
      await waitForStatus(h, auth, run.id, status);
      expect((await post(`/v1/runs/${run.id}/cancel`)).status).toBe(202);
      const done = await waitForStatus(h, auth, run.id, 'cancelled');
      expect(done.pendingAction).toBeNull();
      const again = await post(`/v1/runs/${run.id}/cancel`);
      expect(again.status).toBe(409);
      expect((await again.json()).error.details.status).toBe('cancelled');
    }
  });

  it('cancels through Temporal: the workflow of a cancelled run shows as Canceled', async () => {
    const agent = await createAgent(h, auth, { presetId: 'scripted' });
    const run = await createRun(h, auth, { agentId: agent.id, input: { script: [{ ask: 'q' }] } });
    await waitForStatus(h, auth, run.id, 'needs_input');
    expect((await post(`/v1/runs/${run.id}/cancel`)).status).toBe(202);
    expect(await waitForStatus(h, auth, run.id, 'cancelled')).toMatchObject({ pendingAction: null, output: null });
    const handle = h.temporal.client.workflow.getHandle(runWorkflowId(run.id));
    const status = await pollUntil(
      10_000,
      async () => (await handle.describe()).status.name,
      (s) => s === 'CANCELLED',
      'the workflow to close as Canceled',
    );
    expect(status).toBe('CANCELLED');
  });

  it('cancels a queued run: it ends cancelled without ever running', async () => {
    // a run on a queue no worker polls yet stays queued; the cancel waits in Temporal for the first worker
    const agent = await createAgent(h, auth, { presetId: 'general-assistant' });
    const idle = await startApi({ ...h.config, temporal: { ...h.config.temporal, taskQueue: testTaskQueue() } });
    let late: RunningWorker | undefined;
    try {
      const run = await createRun(idle, auth, { agentId: agent.id, input: {} });
      expect((await post(`/v1/runs/${run.id}/cancel`)).status).toBe(202);
      const still = await (await h.request(`/v1/runs/${run.id}`, { headers: auth })).json();
      expect(still.status).toBe('queued');
      late = await startWorker(idle.config, idle.orm);
      const done = await waitForStatus(h, auth, run.id, 'cancelled');
      expect(done).toMatchObject({ startedAt: null, output: null, usage: { costUsd: 0 } });
      const { steps } = await (await h.request(`/v1/runs/${run.id}/steps`, { headers: auth })).json();
      expect(steps).toEqual([]);
      const events = await (await h.request(`/v1/runs/${run.id}/events`, { headers: auth })).text();
      expect([...events.matchAll(/"status":"(\w+)"/g)].map((m) => m[1])).toEqual(['queued', 'cancelled']);
    } finally {
      await late?.stop();
      await idle.close();
    }
  });

  it("answers 404 for another workspace's runs and agents", async () => {
    const agent = await createAgent(h, auth, { presetId: 'general-assistant' });
    const run = await createRun(h, auth, { agentId: agent.id, input: {} });
    const stranger = await signUp(h);
    const other = bearer(await createKey(h, stranger, ['runs:read', 'runs:write', 'agents:read', 'feedback:write']));
    const attempts: Array<[string, string, unknown?]> = [
      ['GET', `/v1/runs/${run.id}`],
      ['GET', `/v1/runs/${run.id}/output`],
      ['GET', `/v1/runs/${run.id}/steps`],
      ['GET', `/v1/runs/${run.id}/events`],
      ['POST', `/v1/runs/${run.id}/cancel`],
      ['POST', `/v1/runs/${run.id}/input`, { answer: 'x' }],
      ['POST', `/v1/runs/${run.id}/approve`, { approved: true }],
      ['POST', `/v1/runs/${run.id}/review`, { accept: true }],
      ['POST', `/v1/runs/${run.id}/feedback`, { rating: 5 }],
      ['GET', `/v1/agents/${agent.id}`],
      ['GET', `/v1/agents/${agent.id}/versions`],
      ['GET', `/v1/agents/${agent.id}/definition`],
    ];
    for (const [method, path, json] of attempts) {
      const res = await h.request(path, { method, headers: other, json });
      expect([method, path, res.status]).toEqual([method, path, 404]);
    }
    const create = await h.request('/v1/runs', { method: 'POST', headers: other, json: { agentId: agent.id } });
    expect(create.status).toBe(404);
  });

  it('records feedback', async () => {
    const agent = await createAgent(h, auth, { presetId: 'general-assistant' });
    const run = await createRun(h, auth, { agentId: agent.id, input: {} });
    const res = await post(`/v1/runs/${run.id}/feedback`, { rating: 4, correctedOutput: { better: true } });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({
      runId: run.id,
      rating: 4,
      correctedOutput: { better: true },
      comment: null,
    });
    expect((await post(`/v1/runs/${run.id}/feedback`, { rating: 6 })).status).toBe(400);
  });

  it('waits in needs_approval before a tool call when the agent says so, and runs the tool once approved', async () => {
    const agent = await createAgent(h, auth, { presetId: 'scripted', settings: { approval: 'before_tools' } });
    const args = { url: 'http://127.0.0.1:9/unreachable' };
    const run = await createRun(h, auth, {
      agentId: agent.id,
      input: { script: [{ tool: 'http_request', args }, { final: 'done' }] },
    });
    const waiting = await waitForStatus(h, auth, run.id, 'needs_approval');
    expect(waiting.pendingAction).toMatchObject({ type: 'approval', tool: 'http_request', args });
    expect(
      (await post(`/v1/runs/${run.id}/approve`, { approved: true, actionId: waiting.pendingAction.id })).status,
    ).toBe(202);
    const done = await waitForStatus(h, auth, run.id, 'succeeded');
    expect(done.output).toBe('done');
    const { steps } = await (await h.request(`/v1/runs/${run.id}/steps`, { headers: auth })).json();
    expect(steps.map((s: { type: string }) => s.type)).toEqual(['model', 'approval', 'tool', 'model']);
    // the guard refused the private URL (SVC_ALLOW_PRIVATE_EGRESS is off here); the model got the error as the result
    expect(steps[2].detail.error).toMatch(/not public|loopback/i);
  });

  it('answers 503 unavailable when Temporal cannot take an answer, and the answer can be given again later', async () => {
    const agent = await createAgent(h, auth, { presetId: 'scripted' });
    const run = await createRun(h, auth, { agentId: agent.id, input: { script: [{ ask: 'q' }] } });
    await waitForStatus(h, auth, run.id, 'needs_input');
    const cut = await startApi({ ...h.config, temporal: { ...h.config.temporal, address: '127.0.0.1:9' } });
    try {
      const res = await cut.request(`/v1/runs/${run.id}/input`, {
        method: 'POST',
        headers: auth,
        json: { answer: 'lost?' },
      });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).not.toBeNull();
    } finally {
      await cut.close();
    }
    expect((await post(`/v1/runs/${run.id}/input`, { answer: 'kept' })).status).toBe(202);
    const done = await waitForStatus(h, auth, run.id, 'succeeded');
    expect(done.output).toEqual({ answers: ['kept'] });
  });

  it('gives a retried answer the result of the first, never applying it to the next gate', async () => {
    const agent = await createAgent(h, auth, { presetId: 'scripted' });
    const run = await createRun(h, auth, { agentId: agent.id, input: { script: [{ ask: 'one' }, { ask: 'two' }] } });
    const first = (await waitForStatus(h, auth, run.id, 'needs_input')).pendingAction;
    const answer = { answer: 'a1', actionId: first.id };
    const accepted = await post(`/v1/runs/${run.id}/input`, answer);
    expect(accepted.status).toBe(202);
    expect((await accepted.json()).id).toBe(run.id);
    // the same answer again while the first is still being taken: the same result
    expect((await post(`/v1/runs/${run.id}/input`, answer)).status).toBe(202);
    const second = (await waitForStatus(h, auth, run.id, (r) => r.pendingAction && r.pendingAction.id !== first.id))
      .pendingAction;
    expect(second).toMatchObject({ type: 'input', question: 'two' });
    // and once the run waits at the next gate: still 202 with the run, and the next gate stays open
    const retried = await post(`/v1/runs/${run.id}/input`, answer);
    expect(retried.status).toBe(202);
    expect(await retried.json()).toMatchObject({ id: run.id, status: 'needs_input', pendingAction: { id: second.id } });
    // the workflow itself still waits at the second gate
    const state = await h.temporal.client.workflow.getHandle(runWorkflowId(run.id)).query(stateQuery);
    expect(state.pendingAction?.id).toBe(second.id);
    expect((await (await h.request(`/v1/runs/${run.id}`, { headers: auth })).json()).pendingAction.id).toBe(second.id);
    // an action id that was never answered is refused
    const stale = await post(`/v1/runs/${run.id}/input`, { answer: 'x', actionId: 'never-pending' });
    expect(stale.status).toBe(409);
    expect((await post(`/v1/runs/${run.id}/input`, { answer: 'a2', actionId: second.id })).status).toBe(202);
    expect((await waitForStatus(h, auth, run.id, 'succeeded')).output).toEqual({ answers: ['a1', 'a2'] });
  });

  it('answers every action that does not match the status with 409 run.invalid_state', async () => {
    const agent = await createAgent(h, auth, {
      presetId: 'scripted',
      settings: { approval: 'before_output', review: true },
    });
    const run = await createRun(h, auth, { agentId: agent.id, input: { script: [{ ask: 'q' }, { final: 1 }] } });
    const actions: Record<string, unknown> = {
      input: { answer: 1 },
      approve: { approved: true },
      review: { accept: true },
    };
    const refuses = async (status: string, allowed: string | null) => {
      for (const [action, body] of Object.entries(actions)) {
        if (action === allowed) continue;
        const res = await post(`/v1/runs/${run.id}/${action}`, body);
        expect([status, action, res.status]).toEqual([status, action, 409]);
        expect((await res.json()).error).toMatchObject({ code: 'run.invalid_state', details: { status } });
      }
    };
    await waitForStatus(h, auth, run.id, 'needs_input');
    await refuses('needs_input', 'input');
    await post(`/v1/runs/${run.id}/input`, { answer: 'a' });
    await waitForStatus(h, auth, run.id, 'needs_approval');
    await refuses('needs_approval', 'approve');
    await post(`/v1/runs/${run.id}/approve`, { approved: true });
    await waitForStatus(h, auth, run.id, 'needs_review');
    await refuses('needs_review', 'review');
    await post(`/v1/runs/${run.id}/review`, { accept: true });
    await waitForStatus(h, auth, run.id, 'succeeded');
    await refuses('succeeded', null);
    expect((await post(`/v1/runs/${run.id}/cancel`)).status).toBe(409);
  });
});
