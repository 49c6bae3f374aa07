import { signLink } from '../../domain/shared/approvalLinks';
import type { Mail } from '../../platform/mailer';
import { auditLog } from '../audit/helpers';
import { addMember, setPlan, signUp, type Account } from '../helpers/factories';
import type { Harness } from '../helpers/harness';
import { pollUntil } from '../helpers/poll';
import { ok } from '../helpers/responses';
import { startRunStack } from '../helpers/worker';
import { createFlow, runFlow, waitForFlowRun } from './helpers';

type Headers = Record<string, string>;

// One-click links for a flow's approval step under a policy (docs/api/flows.md#approval-policies), over HTTP
// with a real worker: the links the approvers' mail carries, what their GET and POST do, and what they refuse.
describe('flow approval links', () => {
  let h: Harness;
  let stop: () => Promise<void>;
  const mails: Mail[] = [];
  let owner: Account;
  const admins: Account[] = [];

  const as = (a: Account): Headers => ({ cookie: a.cookie, 'x-workspace-id': owner.workspaceId });
  const admin = { approvers: { roles: ['admin'] }, required: 1 };

  beforeAll(async () => {
    ({ h, stop } = await startRunStack({}, { mailer: { send: async (m) => void mails.push(m) } }));
    owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    for (let i = 0; i < 3; i++) {
      const a = await signUp(h);
      await addMember(h, a.userId, owner.workspaceId, 'admin');
      admins.push(a);
    }
  }, 120_000);
  afterAll(() => stop?.());

  /** The link `which` of the mail `to` got for the step `step` of flow run `runId`. */
  async function linkOf(to: Account, runId: string, step: string, which: 'approve' | 'reject'): Promise<string> {
    const mail = await pollUntil(
      20_000,
      () => mails.find((m) => m.to === to.email && m.subject.includes(runId) && m.text.includes(`Step "${step}"`)),
      Boolean,
      `the mail to ${to.email} for step ${step}`,
    );
    const link = (which === 'approve' ? /Approve: (\S+)/ : /Reject: (\S+)/).exec(mail!.text)![1];
    expect(link.startsWith(`${h.url}/approvals/`)).toBe(true);
    return link;
  }

  const post = async (link: string) => (await fetch(link, { method: 'POST' })).text();

  it('GET only confirms; POST approves once, even clicked twice at once, and the flow run goes on', async () => {
    const flow = await createFlow(h, as(owner), {
      steps: [
        { name: 'first', type: 'approval', message: 'Ship {{trigger.what}}?', approvalPolicy: admin },
        { name: 'second', type: 'approval', message: 'Announce it?', approvalPolicy: admin },
      ],
    });
    const run = await runFlow(h, as(owner), flow.id, { what: 'v3' });
    await waitForFlowRun(h, as(owner), run.id, 'waiting_approval');
    const approve = await linkOf(admins[0], run.id, 'first', 'approve');
    expect(mails.find((m) => m.to === admins[0].email && m.subject.includes(run.id))?.text).toContain('Ship v3?');
    // the owner started the run and may not approve it: no mail for them
    expect(mails.some((m) => m.to === owner.email && m.subject.includes(run.id))).toBe(false);

    const page = await fetch(approve);
    expect(page.status).toBe(200);
    const shown = await page.text();
    expect(shown).toContain('<form method="post"');
    expect(shown).toContain('Ship v3?');
    const still = await waitForFlowRun(h, as(owner), run.id, 'waiting_approval');
    expect(still.pendingApproval).toMatchObject({ step: 'first', approvals: [] });

    const both = await Promise.all([post(approve), post(approve)]);
    expect(both.filter((t) => t.includes('Your approval is recorded'))).toHaveLength(1);
    expect(both.filter((t) => t.includes('already used'))).toHaveLength(1);

    const next = await waitForFlowRun(h, as(owner), run.id, (r) => r.pendingApproval?.step === 'second');
    expect(next.steps[0]).toMatchObject({ status: 'succeeded', output: { approved: true } });
    expect(next.steps[0].output.approvals.map((a: { userId: string }) => a.userId)).toEqual([admins[0].userId]);
    // a link to the step that moved on answers nothing, not even the step that waits now
    expect(await post(await linkOf(admins[1], run.id, 'first', 'approve'))).toContain('no longer open');
    expect(await post(approve)).toContain('already used');

    expect(await post(await linkOf(admins[1], run.id, 'second', 'approve'))).toContain('Your approval is recorded');
    const done = await waitForFlowRun(h, as(owner), run.id, 'succeeded');
    expect(done.steps[1].output.approvals.map((a: { userId: string }) => a.userId)).toEqual([admins[1].userId]);

    // audited as the approval route's answers are, once per answer
    const entries = await auditLog(h, as(owner), `&action=flow_run.approved&resourceId=${run.id}`);
    expect(entries.map((e) => [e.actor.userId, e.details.step]).sort()).toEqual(
      [
        [admins[0].userId, 'first'],
        [admins[1].userId, 'second'],
      ].sort(),
    );
  });

  it('a reject link rejects; an expired link and a person the policy no longer names answer nothing', async () => {
    const flow = await createFlow(h, as(owner), {
      steps: [
        {
          name: 'pay',
          type: 'approval',
          message: 'Pay the invoice?',
          approvalPolicy: { approvers: { roles: ['admin'] }, required: 2 },
        },
      ],
    });
    const run = await runFlow(h, as(owner), flow.id);
    const waiting = await waitForFlowRun(h, as(owner), run.id, 'waiting_approval');
    const approveOf2 = await linkOf(admins[2], run.id, 'pay', 'approve');

    const expired = signLink(h.config.secretKeys, {
      kind: 'flow_run',
      workspaceId: owner.workspaceId,
      subjectId: run.id,
      actionId: waiting.pendingApproval.id,
      userId: admins[0].userId,
      decision: 'approve',
      expiresAt: Math.floor(Date.now() / 1000) - 1,
    });
    expect(await post(`${h.url}/approvals/${expired}`)).toContain('This link has expired');

    // demoted after the mail went out: the step's policy no longer names them
    await ok(
      h.request(`/v1/workspace/members/${admins[2].userId}`, {
        method: 'PATCH',
        headers: as(owner),
        json: { role: 'member' },
      }),
      200,
    );
    const refused = await post(approveOf2);
    expect(refused).toContain('You may not answer this approval');
    expect(refused).toContain('not one of the approvers');
    const unchanged = await waitForFlowRun(h, as(owner), run.id, 'waiting_approval');
    expect(unchanged.pendingApproval.approvals).toEqual([]);

    const reject = await linkOf(admins[1], run.id, 'pay', 'reject');
    expect(await (await fetch(reject)).text()).toContain('<button type="submit">Reject</button>');
    expect(await post(reject)).toContain('Your rejection is recorded; the flow run is rejected');
    const failed = await waitForFlowRun(h, as(owner), run.id, 'failed');
    expect(failed.error.code).toBe('flow.rejected');
    expect(await post(await linkOf(admins[0], run.id, 'pay', 'approve'))).toContain('no longer open');

    const [entry, ...more] = await auditLog(h, as(owner), `&action=flow_run.rejected&resourceId=${run.id}`);
    expect(more).toEqual([]);
    expect(entry.actor).toMatchObject({ type: 'user', userId: admins[1].userId });
    expect(await auditLog(h, as(owner), `&action=flow_run.approved&resourceId=${run.id}`)).toEqual([]);
  });
});
