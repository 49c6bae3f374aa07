import { startRunStack } from '../helpers/worker';
import type { Harness } from '../helpers/harness';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import { createAgent, createRun, waitForStatus } from '../helpers/runs';
import { startReceiver } from '../helpers/receiver';

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

async function account(h: Harness): Promise<Record<string, string>> {
  const owner = await signUp(h);
  await setPlan(h, owner.workspaceId, 'scale');
  return bearer(await createKey(h, owner, ['runs:read', 'runs:write', 'agents:read', 'agents:write']));
}

async function stepsOf(h: Harness, auth: Record<string, string>, runId: string): Promise<any[]> {
  return (await (await h.request(`/v1/runs/${runId}/steps`, { headers: auth })).json()).steps;
}

describe('a run executes only the tools its agent version lists', () => {
  let h: Harness;
  let stop: () => Promise<void>;
  let auth: Record<string, string>;
  let rx: Receiver;

  beforeAll(async () => {
    // Egress to 127.0.0.1 is open here: only the tool list can keep a call from the receiver.
    ({ h, stop } = await startRunStack({ allowPrivateEgress: true, allowPrivateWebhooks: false }));
    auth = await account(h);
  }, 120_000);
  afterAll(() => stop?.());
  beforeEach(async () => {
    rx = await startReceiver();
  });
  afterEach(() => rx.close());

  it('fails a run whose model calls an unlisted tool with agent.tool_not_allowed, sending nothing', async () => {
    const agent = await createAgent(h, auth, { presetId: 'scripted', tools: ['ask_user'] });
    const run = await createRun(h, auth, {
      agentId: agent.id,
      input: { script: [{ tool: 'http_request', args: { url: rx.url } }, { final: 'never' }] },
    });
    const done = await waitForStatus(h, auth, run.id, ['succeeded', 'failed']);
    expect(done).toMatchObject({
      status: 'failed',
      output: null,
      error: { code: 'agent.tool_not_allowed', message: expect.stringContaining('http_request') },
    });
    // the run has failed: nothing it does can follow
    expect(rx.received).toHaveLength(0);
    const steps = await stepsOf(h, auth, run.id);
    expect(steps.map((s) => `${s.type}:${s.status}`)).toEqual(['model:failed']);
    expect(steps[0].detail.error).toContain('http_request');
  });

  it('fails it before any approval gate, even when the agent gates every tool', async () => {
    const agent = await createAgent(h, auth, {
      presetId: 'scripted',
      tools: [],
      settings: { approval: 'before_tools' },
    });
    const run = await createRun(h, auth, {
      agentId: agent.id,
      input: { script: [{ tool: 'http_request', args: { url: rx.url } }] },
    });
    const done = await waitForStatus(h, auth, run.id, ['succeeded', 'failed', 'needs_approval']);
    expect(done).toMatchObject({ status: 'failed', error: { code: 'agent.tool_not_allowed' } });
    expect(rx.received).toHaveLength(0);
  });

  it('still runs a listed tool, and ask_user even when the agent lists no tool at all', async () => {
    const listed = await createAgent(h, auth, { presetId: 'scripted' });
    expect(listed.tools).toContain('http_request');
    const run = await createRun(h, auth, {
      agentId: listed.id,
      input: { script: [{ tool: 'http_request', args: { url: rx.url } }, { final: 'fetched' }] },
    });
    expect(await waitForStatus(h, auth, run.id, ['succeeded', 'failed'])).toMatchObject({
      status: 'succeeded',
      output: 'fetched',
    });
    expect(rx.received).toHaveLength(1);

    const bare = await createAgent(h, auth, { presetId: 'scripted', tools: [] });
    const asking = await createRun(h, auth, { agentId: bare.id, input: { script: [{ ask: 'name?' }] } });
    const waiting = await waitForStatus(h, auth, asking.id, ['needs_input', 'failed']);
    expect(waiting.status).toBe('needs_input');
    const answered = await h.request(`/v1/runs/${asking.id}/input`, {
      method: 'POST',
      headers: auth,
      json: { answer: 'Ada', actionId: waiting.pendingAction.id },
    });
    expect(answered.status).toBe(202);
    expect(await waitForStatus(h, auth, asking.id, ['succeeded', 'failed'])).toMatchObject({
      status: 'succeeded',
      output: { answers: ['Ada'] },
    });
  });
});

describe('SVC_ALLOW_PRIVATE_WEBHOOKS does not open the http_request tool to private addresses', () => {
  let h: Harness;
  let stop: () => Promise<void>;
  let auth: Record<string, string>;
  let rx: Receiver;

  beforeAll(async () => {
    ({ h, stop } = await startRunStack({ allowPrivateWebhooks: true, allowPrivateEgress: false }));
    auth = await account(h);
    rx = await startReceiver();
  }, 120_000);
  afterAll(async () => {
    await rx?.close();
    await stop?.();
  });

  it('refuses a tool call to 127.0.0.1 with the guard error as the tool result; nothing arrives', async () => {
    const agent = await createAgent(h, auth, { presetId: 'scripted' });
    const run = await createRun(h, auth, {
      agentId: agent.id,
      input: { script: [{ tool: 'http_request', args: { url: rx.url } }, { final: 'after the refusal' }] },
    });
    expect(await waitForStatus(h, auth, run.id, ['succeeded', 'failed'])).toMatchObject({
      status: 'succeeded',
      output: 'after the refusal',
    });
    const steps = await stepsOf(h, auth, run.id);
    expect(steps.map((s) => `${s.type}:${s.status}`)).toEqual(['model:succeeded', 'tool:failed', 'model:succeeded']);
    expect(steps[1].detail.error).toMatch(/not public|loopback/i);
    expect(rx.received).toHaveLength(0);
  });
});
