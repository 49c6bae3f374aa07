import type { Harness } from '../helpers/harness';
import { bearer, createKey, setPlan, signUp, type Account } from '../helpers/factories';
import { ok } from '../helpers/responses';
import { createAgent, createRun, waitForStatus } from '../helpers/runs';
import { startRunStack, type RunningWorker } from '../helpers/worker';
import { auditLog, traced } from './helpers';

// Every answer to a run's gate is in the audit log (docs/api/audit.md), by whoever gave it; what the
// person typed is not.
describe('gate answers in the audit log', () => {
  let h: Harness;
  let worker: RunningWorker;
  let owner: Account;
  let auth: Record<string, string>;
  let keyId: string;

  beforeAll(async () => {
    ({ h, worker } = await startRunStack());
    owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    auth = bearer(await createKey(h, owner, ['runs:read', 'runs:write', 'agents:read', 'agents:write']));
    const keys = await ok(h.request('/v1/api-keys', { headers: { cookie: owner.cookie } }), 200);
    keyId = keys.apiKeys[0].id;
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    await h?.close();
  });

  it('records input, approval, review and rejection with the actor, IP, user agent and request id', async () => {
    const agent = await createAgent(h, auth, {
      presetId: 'scripted',
      settings: { approval: 'before_output', review: true },
    });
    const run = await createRun(h, auth, {
      agentId: agent.id,
      input: { script: [{ ask: 'Your name?' }, { final: { draft: 'Hello' } }] },
    });
    const answers: Array<{ action: string; headers: Record<string, string>; actor: unknown }> = [];
    const answer = async (
      action: string,
      path: string,
      json: unknown,
      headers: Record<string, string> = auth,
      actor: unknown = { type: 'api_key', keyId },
    ) => {
      const withTrace = traced(headers, `gate/${answers.length}`);
      await ok(h.request(`/v1/runs/${run.id}/${path}`, { method: 'POST', headers: withTrace, json }), 202);
      answers.push({ action, headers: withTrace, actor });
    };

    await waitForStatus(h, auth, run.id, 'needs_input');
    await answer('run.input_submitted', 'input', { answer: 'a private answer' });
    await waitForStatus(h, auth, run.id, 'needs_approval');
    // a session answers this one
    await answer(
      'run.approved',
      'approve',
      { approved: true },
      { cookie: owner.cookie },
      {
        type: 'user',
        userId: owner.userId,
      },
    );
    await waitForStatus(h, auth, run.id, 'needs_review');
    await answer('run.reviewed', 'review', { accept: true, correctedOutput: { draft: 'a private correction' } });
    await waitForStatus(h, auth, run.id, 'succeeded');

    const rejected = await createAgent(h, auth, { presetId: 'scripted', settings: { approval: 'before_output' } });
    const second = await createRun(h, auth, { agentId: rejected.id, input: { script: [{ final: 1 }] } });
    await waitForStatus(h, auth, second.id, 'needs_approval');
    const rejectTrace = traced(auth, 'gate/reject');
    await ok(
      h.request(`/v1/runs/${second.id}/approve`, {
        method: 'POST',
        headers: rejectTrace,
        json: { approved: false, comment: 'no' },
      }),
      202,
    );
    // a repeat of an answer already taken is refused and records nothing
    const again = await h.request(`/v1/runs/${second.id}/approve`, {
      method: 'POST',
      headers: auth,
      json: { approved: true },
    });
    expect(again.status).toBe(409);

    const entries = (await auditLog(h, { cookie: owner.cookie }, '&resourceType=run')).reverse();
    expect(entries.map((e) => [e.action, e.resourceId])).toEqual([
      ...answers.map((a) => [a.action, run.id]),
      ['run.rejected', second.id],
    ]);
    answers.forEach((a, i) => {
      expect(entries[i]).toMatchObject({
        actor: a.actor,
        userAgent: a.headers['user-agent'],
        requestId: a.headers['x-request-id'],
        ip: expect.stringMatching(/127\.0\.0\.1$/),
      });
    });
    expect(entries[2].details).toMatchObject({ accept: true, corrected: true });
    expect(entries[3]).toMatchObject({ requestId: rejectTrace['x-request-id'], details: { withComment: true } });
    const text = JSON.stringify(entries);
    expect(text).not.toContain('a private answer');
    expect(text).not.toContain('a private correction');
  }, 120_000);
});
