import { runAdmin } from '../../scripts/admin';
import { addMember, bearer, createKey, setPlan, signUp, type Account } from '../helpers/factories';
import type { Harness } from '../helpers/harness';
import { error, ok } from '../helpers/responses';
import { waitForStatus } from '../helpers/runs';
import { startRunStack } from '../helpers/worker';
import { auditLog } from '../audit/helpers';
import { call, upload, type Headers } from './helpers';

const BANK = ['date,description,amount,counterparty', '2026-10-20,ACME Corp payment,3000.00,ACME Corp'].join('\n');
const RECEIPTS = 'date,vendor,amount\n2026-10-19,ACME Corp,"3,000.00"\n';

// A reconciliation's approval under a policy (docs/api/finance.md#approval-policy): the policy given when the
// reconciliation starts is the finance agent's, and its gate obeys it like any run's.
describe('finance reconciliation approval policy', () => {
  let h: Harness;
  let stop: () => Promise<void>;
  let owner: Account;
  let admin: Account;
  let fileIds: string[];
  const policy = { approvers: { roles: ['admin'] }, required: 1 };

  beforeAll(async () => {
    ({ h, stop } = await startRunStack());
    owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    // this file starts more runs than an unverified account may
    await runAdmin(h.orm, ['user:verify', owner.email]);
    admin = await signUp(h);
    await addMember(h, admin.userId, owner.workspaceId, 'admin');
    const s = { cookie: owner.cookie };
    const mapping = { date: 'date', description: 'description', amount: 'amount', counterparty: 'counterparty' };
    const bank = await upload(h, s, BANK);
    await ok(call(h, 'POST', '/v1/finance/imports', s, { fileId: bank, format: 'csv', mapping }), 201);
    fileIds = [await upload(h, s, RECEIPTS, 'receipts.csv')];
  }, 120_000);
  afterAll(() => stop?.());

  const asOwner = (): Headers => ({ cookie: owner.cookie });
  const asAdmin = (): Headers => ({ cookie: admin.cookie, 'x-workspace-id': owner.workspaceId });
  const reconcile = (headers: Headers, extra: Record<string, unknown> = {}) =>
    call(h, 'POST', '/v1/finance/reconciliations', headers, {
      from: '2026-10-01',
      to: '2026-10-31',
      fileIds,
      ...extra,
    });

  it("gates the matches by the policy given: the starter may not approve, an admin may, and it is the agent's from then on", async () => {
    const run = await ok(reconcile(asOwner(), { approvalPolicy: policy }), 201);
    const waiting = await waitForStatus(h, asOwner(), run.id, 'needs_approval');
    expect(waiting.pendingAction).toMatchObject({
      type: 'approval',
      tool: 'finance_apply_matches',
      policy: { ...policy, forbidSelfApproval: true, allowKeys: false },
      remaining: 1,
    });
    const approve = (headers: Headers) =>
      call(h, 'POST', `/v1/runs/${run.id}/approve`, headers, { approved: true, actionId: waiting.pendingAction.id });
    const self = await error(approve(asOwner()), 403, 'forbidden');
    expect(self.details).toEqual({ reason: 'self_approval' });
    await ok(approve(asAdmin()), 202);
    const done = await waitForStatus(h, asOwner(), run.id, 'succeeded');
    expect(done.output.reconciled).toBe(1);
    const [entry] = await auditLog(h, asOwner(), `&action=run.approved&resourceId=${run.id}`);
    expect(entry.actor).toEqual({ type: 'user', userId: admin.userId });

    // the policy is the finance agent's now: a reconciliation that names none is gated by it too
    const agent = await ok(call(h, 'GET', `/v1/agents/${run.agentId}`, asOwner()), 200);
    expect(agent.settings.approvalPolicy).toMatchObject(policy);
    const next = await ok(reconcile(asOwner()), 201);
    expect(next.agentVersion).toBe(run.agentVersion);
    const second = await waitForStatus(h, asOwner(), next.id, 'needs_approval');
    expect(second.pendingAction.policy).toMatchObject(policy);
    await ok(call(h, 'POST', `/v1/runs/${next.id}/cancel`, asOwner()), 202);
  });

  it('changing the policy takes agents:write; repeating it does not; a malformed one is 400', async () => {
    await ok(
      reconcile(asOwner(), { approvalPolicy: policy }).then((r) => r),
      201,
    );
    const financeOnly = bearer(await createKey(h, owner, ['finance:write', 'runs:write', 'runs:read']));
    const same = await ok(reconcile(financeOnly, { approvalPolicy: policy }), 201);
    await ok(call(h, 'POST', `/v1/runs/${same.id}/cancel`, financeOnly), 202);
    const agentId = same.agentId;
    const before = await ok(call(h, 'GET', `/v1/agents/${agentId}`, asOwner()), 200);
    await error(reconcile(financeOnly, { approvalPolicy: null }), 403, 'forbidden');
    await error(reconcile(financeOnly, { approvalPolicy: { ...policy, required: 2 } }), 403, 'forbidden');
    const after = await ok(call(h, 'GET', `/v1/agents/${agentId}`, asOwner()), 200);
    expect(after.version).toBe(before.version);

    const bad = await error(
      reconcile(asOwner(), { approvalPolicy: { approvers: { roles: ['admin'] }, required: 1, onExpiry: 'fail' } }),
      400,
      'validation_error',
    );
    expect(bad.details.issues[0].path).toBe('approvalPolicy.onExpiry');
    // an owner removes it: the next reconciliation's gate is answered once, by anyone who may write runs
    const open = await ok(reconcile(asOwner(), { approvalPolicy: null }), 201);
    const gate = await waitForStatus(h, asOwner(), open.id, 'needs_approval');
    expect(gate.pendingAction.policy).toBeUndefined();
    await ok(call(h, 'POST', `/v1/runs/${open.id}/cancel`, asOwner()), 202);
  });
});
