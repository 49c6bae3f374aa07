import type { Mail } from '../../platform/mailer';
import { auditLog } from '../audit/helpers';
import { addMember, bearer, createKey, setPlan, signUp, type Account } from '../helpers/factories';
import type { Harness } from '../helpers/harness';
import { error, ok } from '../helpers/responses';
import { pollUntil } from '../helpers/poll';
import { startRunStack } from '../helpers/worker';
import { createFlow, runFlow, waitForFlowRun } from './helpers';

type Headers = Record<string, string>;

// A flow's approval step under an approval policy (docs/api/flows.md#approval-policies), over HTTP with a
// real worker: who may answer, how many must, the expiry, the mails and the audit log.
describe('flow approval policies', () => {
  let h: Harness;
  let stop: () => Promise<void>;
  const mails: Mail[] = [];
  let owner: Account;
  let coOwner: Account;
  const admins: Account[] = [];
  let ownerKey: Headers;

  const as = (a: Account): Headers => ({ cookie: a.cookie, 'x-workspace-id': owner.workspaceId });

  beforeAll(async () => {
    ({ h, stop } = await startRunStack({}, { mailer: { send: async (m) => void mails.push(m) } }));
    owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    ownerKey = bearer(await createKey(h, owner, ['flows:read', 'flows:manage']));
    coOwner = await signUp(h);
    await addMember(h, coOwner.userId, owner.workspaceId, 'owner');
    for (let i = 0; i < 2; i++) {
      const a = await signUp(h);
      await addMember(h, a.userId, owner.workspaceId, 'admin');
      admins.push(a);
    }
  }, 120_000);
  afterAll(() => stop?.());

  const answer = (headers: Headers, id: string, json: Record<string, unknown>) =>
    h.request(`/v1/flow-runs/${id}/approval`, { method: 'POST', headers, json });

  async function refusedWith(res: Promise<Response>, reason: string) {
    const body = await error(res, 403, 'forbidden');
    expect(body.details).toEqual({ reason });
  }

  it('needs two admins: the starter, a key, a non-approver and a repeat are refused; each answer is shown and audited', async () => {
    const policy = { approvers: { roles: ['admin'] }, required: 2 };
    const flow = await createFlow(h, as(owner), {
      steps: [{ name: 'sign-off', type: 'approval', message: 'Pay {{trigger.amount}}?', approvalPolicy: policy }],
    });
    expect(flow.steps[0].approvalPolicy).toEqual({ ...policy, forbidSelfApproval: true, allowKeys: false });
    const run = await runFlow(h, as(owner), flow.id, { amount: 120 });
    const waiting = await waitForFlowRun(h, as(owner), run.id, 'waiting_approval');
    expect(waiting.pendingApproval).toMatchObject({
      step: 'sign-off',
      message: 'Pay 120?',
      policy: { ...policy, forbidSelfApproval: true, allowKeys: false },
      approvals: [],
      remaining: 2,
      expiresAt: null,
      escalated: false,
    });

    // the admins are told as the step opens; the starter, who may not approve, is not
    const subject = `Approval needed: flow run ${run.id}`;
    const told = await pollUntil(
      20_000,
      () => mails.filter((m) => m.subject === subject).map((m) => m.to),
      (to) => to.length >= 2,
      'the opening mails',
    );
    expect(told.sort()).toEqual([admins[0].email, admins[1].email].sort());
    expect(mails.find((m) => m.subject === subject)?.text).toContain('Pay 120?');

    await refusedWith(answer(as(owner), run.id, { approved: true }), 'self_approval');
    await refusedWith(answer(ownerKey, run.id, { approved: true }), 'keys_not_allowed');
    await refusedWith(answer(as(coOwner), run.id, { approved: true }), 'not_an_approver');
    await ok(answer(as(admins[0]), run.id, { approved: true, comment: 'fine' }), 202);
    await refusedWith(answer(as(admins[0]), run.id, { approved: true }), 'already_answered_by_you');

    const one = await waitForFlowRun(h, as(owner), run.id, (r) => r.pendingApproval?.approvals?.length === 1);
    expect(one.status).toBe('waiting_approval');
    expect(one.pendingApproval).toMatchObject({
      remaining: 1,
      approvals: [{ userId: admins[0].userId, keyId: null, comment: 'fine' }],
    });
    expect(one.steps[0].output).toMatchObject({ message: 'Pay 120?', remaining: 1 });

    await ok(answer(as(admins[1]), run.id, { approved: true }), 202);
    const done = await waitForFlowRun(h, as(owner), run.id, 'succeeded');
    expect(done.pendingApproval).toBeNull();
    expect(done.steps[0]).toMatchObject({ status: 'succeeded', output: { approved: true } });
    expect(done.steps[0].output.approvals.map((a: { userId: string }) => a.userId)).toEqual([
      admins[0].userId,
      admins[1].userId,
    ]);
    // a third answer once the step is decided changes nothing
    await error(answer(as(coOwner), run.id, { approved: true }), 409, 'run.invalid_state');

    const entries = await auditLog(h, as(owner), `&action=flow_run.approved&resourceId=${run.id}`);
    expect(entries.map((e) => e.actor.userId).sort()).toEqual([admins[0].userId, admins[1].userId].sort());
    expect(entries[0]).toMatchObject({
      resourceType: 'flow_run',
      details: { step: 'sign-off', actionId: waiting.pendingApproval.id },
    });
  });

  it('a key may answer when the policy allows keys, as the user who made it; one rejection fails the flow run', async () => {
    const policy = { approvers: { userIds: [coOwner.userId] }, required: 1, allowKeys: true };
    const flow = await createFlow(h, as(owner), {
      steps: [{ name: 'sign-off', type: 'approval', message: 'Go?', approvalPolicy: policy }],
    });
    const run = await runFlow(h, as(owner), flow.id);
    await waitForFlowRun(h, as(owner), run.id, 'waiting_approval');
    // a key the co-owner makes in this workspace
    const minted = await ok(
      h.request('/v1/api-keys', {
        method: 'POST',
        headers: as(coOwner),
        json: { name: 'co', scopes: ['flows:manage'] },
      }),
      201,
    );
    const coOwnerKey = bearer(minted.key);
    await ok(answer(coOwnerKey, run.id, { approved: false, comment: 'not this month' }), 202);
    // the same person by session is the same person
    await refusedWith(answer(as(coOwner), run.id, { approved: true }), 'already_answered_by_you');
    const failed = await waitForFlowRun(h, as(owner), run.id, 'failed');
    expect(failed.error).toEqual({ code: 'flow.rejected', message: 'not this month' });
    const [entry] = await auditLog(h, as(owner), `&action=flow_run.rejected&resourceId=${run.id}`);
    expect(entry.actor.type).toBe('api_key');
  });

  it('expires: onExpiry fail fails the flow run flow.approval_expired', async () => {
    const policy = { approvers: { roles: ['admin'] }, required: 1, expiresAfter: 'PT2S', onExpiry: 'fail' };
    const flow = await createFlow(h, as(owner), {
      steps: [{ name: 'sign-off', type: 'approval', message: 'Quick?', approvalPolicy: policy }],
    });
    const run = await runFlow(h, as(owner), flow.id);
    const waiting = await waitForFlowRun(h, as(owner), run.id, 'waiting_approval');
    expect(Date.parse(waiting.pendingApproval.expiresAt)).toBeGreaterThan(Date.parse(waiting.createdAt));
    const failed = await waitForFlowRun(h, as(owner), run.id, 'failed');
    expect(failed.error).toEqual({
      code: 'flow.approval_expired',
      message: 'The approval expired after PT2S (0 of 1 approvals)',
    });
    expect(failed.steps[0]).toMatchObject({ status: 'failed', output: { approved: false, approvals: [] } });
  });

  it('refuses a malformed policy on the step with 400 at its path', async () => {
    const flow = await createFlow(h, as(owner), { steps: [{ name: 'a', type: 'approval', message: 'm' }] });
    const bad = { approvers: { roles: ['admin'] }, required: 9 };
    const res = h.request(`/v1/flows/${flow.id}`, {
      method: 'PATCH',
      headers: as(owner),
      json: { steps: [{ name: 'a', type: 'approval', message: 'm', approvalPolicy: bad }] },
    });
    const body = await error(res, 400, 'validation_error');
    expect(body.details.issues[0].path).toBe('steps.0.approvalPolicy.required');
  });
});
