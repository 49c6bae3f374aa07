import { randomUUID } from 'node:crypto';
import { runAdmin } from '../../scripts/admin';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import type { Harness } from '../helpers/harness';
import { error, ok } from '../helpers/responses';
import { createAgent } from '../helpers/runs';
import { startRunStack } from '../helpers/worker';

type Headers = Record<string, string>;

// Tutor sessions through HTTP with a real worker (docs/api/tutor.md): each message is a charged run of
// the agent whose reply comes back in the response.
describe('tutor sessions', () => {
  let h: Harness;
  let stop: () => Promise<void>;
  let auth: Headers;
  let readOnly: Headers;
  let other: Headers;
  beforeAll(async () => {
    ({ h, stop } = await startRunStack());
    const account = await signUp(h);
    await setPlan(h, account.workspaceId, 'scale');
    auth = bearer(await createKey(h, account, ['agents:read', 'agents:write', 'runs:read', 'runs:write']));
    readOnly = bearer(await createKey(h, account, ['agents:read']));
    const stranger = await signUp(h);
    other = bearer(await createKey(h, stranger, ['agents:read', 'agents:write', 'runs:read', 'runs:write']));
  }, 120_000);
  afterAll(async () => {
    await stop();
  });

  const start = async (headers: Headers, agentId: string, topic = 'fractions') =>
    ok(h.request('/v1/tutor/sessions', { method: 'POST', headers, json: { agentId, topic } }), 201);
  const say = (headers: Headers, id: string, text: string, key?: string) =>
    h.request(`/v1/tutor/sessions/${id}/messages`, {
      method: 'POST',
      headers: { ...headers, ...(key ? { 'idempotency-key': key } : {}) },
      json: { text },
    });

  it('answers each message with a run of the agent and keeps the transcript', async () => {
    const agent = await createAgent(h, auth, {});
    const session = await start(auth, agent.id);
    expect(session).toMatchObject({ agentId: agent.id, topic: 'fractions', status: 'active', messages: [] });

    const first = await ok(say(auth, session.id, 'What is 1/2 + 1/4?'), 200);
    expect(first).toMatchObject({ reply: 'What is 1/2 + 1/4?', duplicate: false });
    const run = await ok(h.request(`/v1/runs/${first.runId}`, { headers: auth }), 200);
    expect(run).toMatchObject({ agentId: agent.id, status: 'succeeded' });
    expect(run.input).toMatchObject({
      topic: 'fractions',
      channel: 'tutor',
      message: 'What is 1/2 + 1/4?',
      transcript: [],
    });

    const second = await ok(say(auth, session.id, 'And 1/3?'), 200);
    const run2 = await ok(h.request(`/v1/runs/${second.runId}`, { headers: auth }), 200);
    expect(run2.input.transcript).toEqual([
      { role: 'user', text: 'What is 1/2 + 1/4?' },
      { role: 'assistant', text: 'What is 1/2 + 1/4?' },
    ]);

    const got = await ok(h.request(`/v1/tutor/sessions/${session.id}`, { headers: readOnly }), 200);
    expect(got.messages.map((m: any) => [m.seq, m.role, m.text, m.runId])).toEqual([
      [1, 'user', 'What is 1/2 + 1/4?', null],
      [2, 'assistant', 'What is 1/2 + 1/4?', first.runId],
      [3, 'user', 'And 1/3?', null],
      [4, 'assistant', 'And 1/3?', second.runId],
    ]);
    const list = await ok(h.request('/v1/tutor/sessions?limit=100', { headers: readOnly }), 200);
    expect(list.sessions.map((s: any) => s.id)).toContain(session.id);
    expect(list.sessions[0].messages).toBeUndefined();
  }, 60_000);

  it('teaches with builtin/tutor on the tutor preset: a question about the topic, then one about each answer', async () => {
    const agent = await createAgent(h, auth, { presetId: 'tutor' });
    expect(agent.modelId).toBe('builtin/tutor');
    const session = await start(auth, agent.id, 'photosynthesis');
    const first = await ok(say(auth, session.id, 'Hi!'), 200);
    expect(first.reply).toBe("Let's study photosynthesis. What do you already know about it?");
    const second = await ok(say(auth, session.id, 'Plants make sugar from light'), 200);
    expect(second.reply).toBe(
      'You said: "Plants make sugar from light". Can you explain that in your own words, with an example from photosynthesis?',
    );
  }, 60_000);

  it('a repeated Idempotency-Key gets the first reply without a second run', async () => {
    const agent = await createAgent(h, auth, {});
    const session = await start(auth, agent.id);
    const key = randomUUID();
    const [a, b] = await Promise.all([say(auth, session.id, 'hello', key), say(auth, session.id, 'hello', key)]);
    const first = await ok(Promise.resolve(a), 200);
    const second = await ok(Promise.resolve(b), 200);
    expect(second.runId).toBe(first.runId);
    expect([first.duplicate, second.duplicate].sort()).toEqual([false, true]);
    const again = await ok(say(auth, session.id, 'hello', key), 200);
    expect(again).toMatchObject({ runId: first.runId, duplicate: true, reply: 'hello' });
    const runs = await ok(h.request(`/v1/runs?agentId=${agent.id}&limit=100`, { headers: auth }), 200);
    expect(runs.runs).toHaveLength(1);
  }, 60_000);

  it('answers 402 billing.insufficient_credits for a turn the workspace cannot pay for, and makes no run', async () => {
    const poor = await signUp(h);
    await setPlan(h, poor.workspaceId, 'scale');
    const key = bearer(
      await createKey(h, poor, ['agents:read', 'agents:write', 'runs:read', 'runs:write', 'usage:read']),
    );
    const agent = await createAgent(h, key, {});
    const session = await start(key, agent.id);
    // builtin/echo costs 0.001 a run: one millionth short
    await runAdmin(h.orm, ['credits:set', poor.workspaceId, '0.000999']);
    const messageKey = randomUUID();
    const refused = await say(key, session.id, 'Can you help?', messageKey);
    expect(refused.status).toBe(402);
    expect((await refused.json()).error).toMatchObject({
      code: 'billing.insufficient_credits',
      details: { required: 0.001, available: 0.000999 },
    });
    const runs = async () =>
      (await ok(h.request(`/v1/runs?agentId=${agent.id}&limit=100`, { headers: key }), 200)).runs;
    expect(await runs()).toEqual([]);
    // the message is kept, unanswered
    const kept = await ok(h.request(`/v1/tutor/sessions/${session.id}`, { headers: key }), 200);
    expect(kept.messages.map((m: any) => [m.seq, m.role, m.text, m.runId])).toEqual([
      [1, 'user', 'Can you help?', null],
    ]);

    // Once the workspace can pay: its key keeps its answer, as every repeated key does; a new message is a turn
    await runAdmin(h.orm, ['credits:set', poor.workspaceId, '0.001']);
    const repeated = await say(key, session.id, 'Can you help?', messageKey);
    expect(repeated.status).toBe(402);
    expect((await repeated.json()).error.code).toBe('billing.insufficient_credits');
    expect(await runs()).toEqual([]);
    const paid = await ok(say(key, session.id, 'Can you help now?', randomUUID()), 200);
    expect(paid).toMatchObject({ reply: 'Can you help now?', duplicate: false, runId: expect.any(String) });
    expect((await runs()).map((r: { id: string }) => r.id)).toEqual([paid.runId]);
    const balance = await ok(h.request('/v1/usage/balance', { headers: key }), 200);
    expect(balance.balanceUsd).toBe(0);
  }, 60_000);

  it('ends on request; a message after is 409; ending twice is fine', async () => {
    const agent = await createAgent(h, auth, {});
    const session = await start(auth, agent.id);
    const ended = await ok(h.request(`/v1/tutor/sessions/${session.id}/end`, { method: 'POST', headers: auth }), 200);
    expect(ended).toMatchObject({ status: 'ended', endedReason: 'request' });
    await ok(h.request(`/v1/tutor/sessions/${session.id}/end`, { method: 'POST', headers: auth }), 200);
    await error(say(auth, session.id, 'still there?'), 409, 'conflict');
  }, 60_000);

  it('scopes, other workspaces and bad input', async () => {
    const agent = await createAgent(h, auth, {});
    await error(
      h.request('/v1/tutor/sessions', { method: 'POST', headers: readOnly, json: { agentId: agent.id, topic: 'x' } }),
      403,
      'forbidden',
    );
    await error(
      h.request('/v1/tutor/sessions', { method: 'POST', headers: other, json: { agentId: agent.id, topic: 'x' } }),
      404,
      'not_found',
    );
    await error(
      h.request('/v1/tutor/sessions', { method: 'POST', headers: auth, json: { agentId: agent.id, topic: '' } }),
      400,
      'validation_error',
    );
    const session = await start(auth, agent.id);
    await error(h.request(`/v1/tutor/sessions/${session.id}`, { headers: other }), 404, 'not_found');
    await error(say(other, session.id, 'hi'), 404, 'not_found');
    await error(say(auth, session.id, ''), 400, 'validation_error');
    await error(say(readOnly, session.id, 'hi'), 403, 'forbidden');
    await error(h.request(`/v1/tutor/sessions/${randomUUID()}`, { headers: auth }), 404, 'not_found');
  }, 60_000);
});
