import type { Mail } from '../../platform/mailer';
import { runWorkflowId } from '../../workflows/messages';
import { signLink } from '../../domain/shared/approvalLinks';
import type { Harness } from '../helpers/harness';
import { addMember, bearer, createKey, setPlan, signUp, type Account } from '../helpers/factories';
import { createAgent, createRun, waitForStatus } from '../helpers/runs';
import { startRunStack, type RunningWorker } from '../helpers/worker';
import { pollUntil } from '../helpers/poll';

// Approval policies (docs/api/runs.md#approval-policies): who may answer a gate, how many must, and what
// happens when nobody does; over HTTP against real Temporal and PostgreSQL, with the worker's mail captured.
describe('approval policies', () => {
  let h: Harness;
  let worker: RunningWorker;
  const mails: Mail[] = [];
  let owner: Account;
  let ownerKey: Record<string, string>;
  let admin: Account;
  let coOwner: Account;
  const members: Account[] = [];
  let workspaceId: string;

  /** A session's headers in the shared workspace. */
  const as = (a: Account) => ({ cookie: a.cookie, 'x-workspace-id': workspaceId });

  beforeAll(async () => {
    ({ h, worker } = await startRunStack({}, { mailer: { send: async (m) => void mails.push(m) } }));
    owner = await signUp(h);
    workspaceId = owner.workspaceId;
    await setPlan(h, workspaceId, 'scale');
    ownerKey = bearer(await createKey(h, owner, ['runs:read', 'runs:write', 'agents:read', 'agents:write']));
    admin = await signUp(h);
    await addMember(h, admin.userId, workspaceId, 'admin');
    coOwner = await signUp(h);
    await addMember(h, coOwner.userId, workspaceId, 'owner');
    for (let i = 0; i < 3; i++) {
      const m = await signUp(h);
      await addMember(h, m.userId, workspaceId, 'member');
      members.push(m);
    }
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    await h?.close();
  });

  /** A scripted agent whose output waits for approval under `policy`, and a run of it started by the owner's key. */
  async function gatedRun(policy: Record<string, unknown>, headers = ownerKey) {
    const agent = await createAgent(h, ownerKey, {
      presetId: 'scripted',
      settings: { approval: 'before_output', approvalPolicy: policy },
    });
    const run = await createRun(h, headers, { agentId: agent.id, input: { script: [{ final: { sent: true } }] } });
    return waitForStatus(h, ownerKey, run.id, 'needs_approval');
  }

  const approve = (headers: Record<string, string>, runId: string, body: Record<string, unknown> = {}) =>
    h.request(`/v1/runs/${runId}/approve`, { method: 'POST', headers, json: { approved: true, ...body } });

  async function refusedWith(res: Response, reason: string) {
    expect(res.status).toBe(403);
    expect((await res.json()).error).toMatchObject({ code: 'forbidden', details: { reason } });
  }

  const approvalsSeen = (runId: string, n: number) =>
    waitForStatus(
      h,
      ownerKey,
      runId,
      (r) => (r.pendingAction?.approvals?.length ?? 0) >= n || r.status !== 'needs_approval',
    );

  it('refuses a policy that cannot work with 400 validation_error', async () => {
    for (const approvalPolicy of [
      { approvers: { roles: ['member'] }, required: 6 },
      { approvers: {}, required: 1 },
      { approvers: { roles: ['member'] }, required: 1, onExpiry: 'reject' },
      { approvers: { roles: ['member'] }, required: 1, expiresAfter: 'P1M' },
      { approvers: { roles: ['member'] }, required: 1, expiresAfter: 'PT1H', onExpiry: 'escalate' },
    ]) {
      const res = await h.request('/v1/agents', {
        method: 'POST',
        headers: ownerKey,
        json: { name: 'bad', presetId: 'scripted', settings: { approval: 'before_output', approvalPolicy } },
      });
      expect(res.status).toBe(400);
      expect((await res.json()).error.code).toBe('validation_error');
    }
  });

  it('needs two of three members: one is not enough, the starter, an outsider and a repeat are refused', async () => {
    const run = await gatedRun({ approvers: { roles: ['member'] }, required: 2 });
    expect(run.pendingAction).toMatchObject({
      type: 'approval',
      proposedOutput: { sent: true },
      policy: { approvers: { roles: ['member'] }, required: 2, forbidSelfApproval: true, allowKeys: false },
      approvals: [],
      remaining: 2,
    });

    expect((await approve(as(members[0]), run.id, { comment: 'fine by me' })).status).toBe(202);
    const one = await approvalsSeen(run.id, 1);
    expect(one.status).toBe('needs_approval');
    expect(one.pendingAction).toMatchObject({
      remaining: 1,
      approvals: [{ userId: members[0].userId, keyId: null, at: expect.any(String), comment: 'fine by me' }],
    });

    await refusedWith(await approve(as(members[0]), run.id), 'already_answered_by_you');
    // the owner started the run through a key they made: that is still the owner
    await refusedWith(await approve(as(owner), run.id), 'self_approval');
    await refusedWith(await approve(as(admin), run.id), 'not_an_approver');

    expect((await approve(as(members[1]), run.id, { actionId: run.pendingAction.id })).status).toBe(202);
    const done = await waitForStatus(h, ownerKey, run.id, 'succeeded');
    expect(done.output).toEqual({ sent: true });

    // each approval is an event of the run's stream and a signal in the workflow's history
    const stream = await (await h.request(`/v1/runs/${run.id}/events`, { headers: ownerKey })).text();
    const approvals = stream.split('\n\n').filter((e) => e.includes('event: run.approval\n'));
    expect(approvals).toHaveLength(2);
    expect(approvals[1]).toContain(members[1].userId);
    const history = await h.temporal.client.workflow.getHandle(runWorkflowId(run.id)).fetchHistory();
    const signals = history.events!.filter((e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'approve');
    expect(signals).toHaveLength(2);
  }, 60_000);

  it('is rejected by one rejection, whose comment is the error message', async () => {
    const run = await gatedRun({ approvers: { roles: ['member'] }, required: 2 });
    expect((await approve(as(members[0]), run.id)).status).toBe(202);
    expect((await approve(as(members[1]), run.id, { approved: false, comment: 'not this week' })).status).toBe(202);
    const failed = await waitForStatus(h, ownerKey, run.id, 'failed');
    expect(failed.error).toEqual({ code: 'run.rejected', message: 'not this week' });
    // the gate is decided: a late answer changes nothing
    const late = await approve(as(members[2]), run.id);
    expect(late.status).toBe(409);
  }, 60_000);

  it('refuses self-approval by the session user who started the run, unless the policy allows it', async () => {
    const forbidden = await gatedRun({ approvers: { roles: ['owner'] }, required: 1 }, as(owner));
    await refusedWith(await approve(as(owner), forbidden.id), 'self_approval');
    const allowed = await gatedRun(
      { approvers: { roles: ['owner'] }, required: 1, forbidSelfApproval: false },
      as(owner),
    );
    expect((await approve(as(owner), allowed.id)).status).toBe(202);
    await waitForStatus(h, ownerKey, allowed.id, 'succeeded');
  }, 60_000);

  it('refuses an API key unless the policy allows keys; an allowed key counts as the person who made it', async () => {
    // only owners make keys (keys:manage): a second owner of the workspace makes this one
    const res = await h.request('/v1/api-keys', {
      method: 'POST',
      headers: as(coOwner),
      json: { name: 'co-owner key', scopes: ['runs:write', 'runs:read'] },
    });
    expect(res.status).toBe(201);
    const made = await res.json();
    const coOwnerKey = bearer(made.key);

    const strict = await gatedRun({ approvers: { roles: ['owner'] }, required: 1 });
    await refusedWith(await approve(coOwnerKey, strict.id), 'keys_not_allowed');

    const lenient = await gatedRun({ approvers: { roles: ['owner'] }, required: 1, allowKeys: true });
    // keys are allowed, yet the owner's key is still the owner, who started the run
    await refusedWith(await approve(ownerKey, lenient.id), 'self_approval');
    expect((await approve(coOwnerKey, lenient.id, { comment: 'by script' })).status).toBe(202);
    const done = await waitForStatus(h, ownerKey, lenient.id, 'succeeded');
    expect(done.output).toEqual({ sent: true });
    const { steps } = await (await h.request(`/v1/runs/${lenient.id}/steps`, { headers: ownerKey })).json();
    const gate = steps.find((s: any) => s.type === 'approval');
    expect(gate.detail.answer.approvals).toEqual([
      { userId: coOwner.userId, keyId: made.id, at: expect.any(String), comment: 'by script' },
    ]);
  }, 60_000);

  it('counts people approving at the same moment once each; the same person twice is refused', async () => {
    const run = await gatedRun({ approvers: { roles: ['member'] }, required: 3 });
    const answers = await Promise.all(
      [members[0], members[1], members[2], members[0], members[1]].map((m) => approve(as(m), run.id)),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 202)).toHaveLength(3);
    expect(statuses.filter((s) => s === 403)).toHaveLength(2);
    for (const r of answers.filter((a) => a.status === 403)) {
      expect((await r.json()).error.details.reason).toBe('already_answered_by_you');
    }
    await waitForStatus(h, ownerKey, run.id, 'succeeded');
    const { steps } = await (await h.request(`/v1/runs/${run.id}/steps`, { headers: ownerKey })).json();
    const counted = steps.find((s: any) => s.type === 'approval').detail.answer.approvals.map((a: any) => a.userId);
    expect(counted.sort()).toEqual(members.map((m) => m.userId).sort());
  }, 60_000);

  it('expires: onExpiry reject rejects the run, onExpiry fail fails it with run.approval_expired', async () => {
    const rejecting = await gatedRun({
      approvers: { roles: ['member'] },
      required: 1,
      expiresAfter: 'PT3S',
      onExpiry: 'reject',
    });
    expect(Date.parse(rejecting.pendingAction.expiresAt)).toBeGreaterThan(Date.parse(rejecting.createdAt));
    const failing = await gatedRun({
      approvers: { roles: ['member'] },
      required: 1,
      expiresAfter: 'PT3S',
      onExpiry: 'fail',
    });
    const rejected = await waitForStatus(h, ownerKey, rejecting.id, 'failed', 20_000);
    expect(rejected.error.code).toBe('run.rejected');
    expect(rejected.error.message).toContain('expired');
    const failed = await waitForStatus(h, ownerKey, failing.id, 'failed', 20_000);
    expect(failed.error).toMatchObject({ code: 'run.approval_expired', message: expect.stringContaining('expired') });
  }, 60_000);

  it('escalates once on expiry: the wider approver set may approve; a second expiry rejects', async () => {
    const policy = {
      approvers: { userIds: [members[0].userId] },
      required: 1,
      expiresAfter: 'PT3S',
      onExpiry: 'escalate',
      escalateTo: { roles: ['admin'] },
    };
    const run = await gatedRun(policy);
    await refusedWith(await approve(as(admin), run.id), 'not_an_approver');
    const escalated = await waitForStatus(h, ownerKey, run.id, (r) => r.pendingAction?.escalated === true, 20_000);
    expect(escalated.status).toBe('needs_approval');
    // the notice follows the escalation, from an activity of its own
    const told = () =>
      mails.some((m) => m.to === admin.email && m.subject.includes('escalated') && m.text.includes(run.id));
    expect(await pollUntil(10_000, async () => told(), Boolean)).toBe(true);
    expect((await approve(as(admin), run.id)).status).toBe(202);
    await waitForStatus(h, ownerKey, run.id, 'succeeded');

    const unanswered = await gatedRun(policy);
    await waitForStatus(h, ownerKey, unanswered.id, (r) => r.pendingAction?.escalated === true, 20_000);
    const rejected = await waitForStatus(h, ownerKey, unanswered.id, 'failed', 20_000);
    expect(rejected.error.code).toBe('run.rejected');
  }, 60_000);

  it('reminds the approvers who have not answered', async () => {
    const run = await gatedRun({ approvers: { roles: ['member'] }, required: 2, remindAfter: 'PT2S' });
    expect((await approve(as(members[0]), run.id)).status).toBe(202);
    const reminded = (to: string) =>
      mails.some((m) => m.to === to && m.subject.startsWith('Reminder') && m.text.includes(run.id));
    expect(await pollUntil(15_000, async () => reminded(members[1].email), Boolean)).toBe(true);
    expect(reminded(members[0].email)).toBe(false);
    expect((await approve(as(members[1]), run.id)).status).toBe(202);
    await waitForStatus(h, ownerKey, run.id, 'succeeded');
  }, 60_000);

  it('mails each approver signed one-click links: GET only confirms, POST approves once, a second click and an expired link do nothing', async () => {
    const run = await gatedRun({ approvers: { roles: ['member'] }, required: 2 });
    const mailTo = (who: Account) =>
      pollUntil(10_000, () => mails.find((m) => m.to === who.email && m.text.includes(run.id)), Boolean, 'the mail');
    const mail = (await mailTo(members[0]))!;
    expect(mail.text).toContain('"sent": true');
    // the owner started the run and may not approve it: no mail for them
    expect(mails.some((m) => m.to === owner.email && m.text.includes(run.id))).toBe(false);
    const link = /Approve: (\S+)/.exec(mail.text)![1];
    expect(link.startsWith(`${h.url}/approvals/`)).toBe(true);

    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<form method="post"');
    const still = await waitForStatus(h, ownerKey, run.id, 'needs_approval');
    expect(still.pendingAction.approvals).toEqual([]);

    const confirmed = await fetch(link, { method: 'POST' });
    expect(await confirmed.text()).toContain('Your approval is recorded');
    const one = await approvalsSeen(run.id, 1);
    expect(one.pendingAction.approvals).toEqual([expect.objectContaining({ userId: members[0].userId })]);

    const again = await fetch(link, { method: 'POST' });
    expect(await again.text()).toContain('already used');

    const expired = signLink(h.config.secretKeys, {
      kind: 'run',
      workspaceId,
      subjectId: run.id,
      actionId: run.pendingAction.id,
      userId: members[1].userId,
      decision: 'approve',
      expiresAt: Math.floor(Date.now() / 1000) - 1,
    });
    const late = await fetch(`${h.url}/approvals/${expired}`, { method: 'POST' });
    expect(await late.text()).toContain('expired');
    const forged = await fetch(`${link.slice(0, -4)}AAAA`, { method: 'POST' });
    expect(await forged.text()).toContain('not valid');
    const after = await waitForStatus(h, ownerKey, run.id, 'needs_approval');
    expect(after.pendingAction.approvals).toHaveLength(1);
  }, 60_000);

  it('without a policy, a gate is answered once by anyone who may write runs, as before', async () => {
    const agent = await createAgent(h, ownerKey, { presetId: 'scripted', settings: { approval: 'before_output' } });
    expect(agent.settings.approvalPolicy).toBeUndefined();
    const created = await createRun(h, ownerKey, { agentId: agent.id, input: { script: [{ final: 1 }] } });
    const run = await waitForStatus(h, ownerKey, created.id, 'needs_approval');
    expect(run.pendingAction).toEqual({ id: expect.any(String), type: 'approval', proposedOutput: 1 });
    expect((await approve(ownerKey, run.id)).status).toBe(202);
    expect((await approve(as(members[0]), run.id)).status).toBe(409);
    await waitForStatus(h, ownerKey, run.id, 'succeeded');
  }, 60_000);
});
