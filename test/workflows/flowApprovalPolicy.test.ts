import { Context } from '@temporalio/activity';
import type { WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { flowWorkflow } from '../../workflows';
import type { ApprovalPolicy } from '../../workflows/approvalPolicy';
import {
  flowApprovalSignal,
  type ApprovalRecord,
  type FlowActivities,
  type FlowError,
  type FlowRunStatus,
} from '../../workflows/flowMessages';
import type { PolicyProgress } from '../../workflows/messages';
import type { PolicyEvent } from '../../workflows/policyGate';
import { pollUntil } from '../helpers/poll';
import { startTimeSkipping, TIME_SKIPPING_SETUP_MS, timeSkippingQueue, workflowWorker } from '../helpers/timeSkipping';

jest.setTimeout(180_000);

// A flow's approval step under a policy (docs/api/flows.md#approval-policies), with stand-in activities on the
// test server's skipped clock: the workflow counts approvals once per person and keeps the expiry, the
// escalation and the reminders as durable timers. Times asserted are the server's.
let env: TestWorkflowEnvironment;
beforeAll(async () => {
  env = await startTimeSkipping();
}, TIME_SKIPPING_SETUP_MS);
afterAll(async () => {
  await env?.teardown();
});

const HOUR = 3_600_000;
const base = { approvers: { roles: ['admin' as const] }, required: 1, forbidSelfApproval: true, allowKeys: false };

function stubFlow(policy: ApprovalPolicy) {
  const opened: Array<{ actionId: string; progress: PolicyProgress }> = [];
  const shown: Array<{ progress: PolicyProgress; event: PolicyEvent }> = [];
  const notices: Array<{ reason: string; at: number }> = [];
  const records: ApprovalRecord[] = [];
  let finished: { status: FlowRunStatus; error: FlowError | null } | undefined;
  const activities: Partial<FlowActivities> = {
    async beginFlowRun() {
      return {
        steps: [
          { name: 'sign-off', type: 'approval', policy },
          { name: 'notify', type: 'http' },
        ],
      };
    },
    async markFlowStep() {},
    async flowHttpStep() {},
    async flowAwaitApproval(_id, _index, actionId, progress) {
      opened.push({ actionId, progress: progress! });
    },
    async flowShowApproval(_id, _index, _actionId, progress, event) {
      shown.push({ progress, event });
    },
    async flowNotifyApprovers(_id, _actionId, reason) {
      notices.push({ reason, at: Context.current().info.currentAttemptScheduledTimestampMs });
    },
    async flowRecordApproval(_id, _index, record) {
      records.push(record);
    },
    async finishFlowRun(_id, status, error) {
      finished = { status, error };
    },
  };
  return { activities, opened, shown, notices, records, finished: () => finished };
}

async function started(flow: ReturnType<typeof stubFlow>) {
  const taskQueue = timeSkippingQueue();
  const worker = await workflowWorker(env, taskQueue, flow.activities);
  const handle = await env.client.workflow.start(flowWorkflow, {
    args: [{ flowRunId: 'fr-1' }],
    workflowId: `flow-${taskQueue}`,
    taskQueue,
  });
  return { worker, handle };
}

const ms = (t: { seconds?: unknown; nanos?: number | null } | null | undefined) =>
  Number(String(t?.seconds ?? 0)) * 1000 + Math.floor((t?.nanos ?? 0) / 1e6);

async function firedTimers(handle: WorkflowHandle): Promise<number[]> {
  const { events } = await handle.fetchHistory();
  return (events ?? []).filter((e) => e.timerFiredEventAttributes).map((e) => ms(e.eventTime));
}

const answer = (actionId: string, userId: string, approved = true) => ({
  actionId,
  approved,
  comment: `${userId} says ${approved ? 'yes' : 'no'}`,
  by: { userId, keyId: null },
  at: '2026-12-07T10:00:00.000Z',
});

describe('a flow approval step under a policy', () => {
  it('counts each person once and goes on when enough approved', async () => {
    const flow = stubFlow({ ...base, required: 2 });
    const { worker, handle } = await started(flow);
    const status = await worker.runUntil(async () => {
      await pollUntil(30_000, () => flow.opened[0], undefined, 'the approval to open');
      const { actionId } = flow.opened[0];
      await handle.signal(flowApprovalSignal, answer(actionId, 'a1'));
      await handle.signal(flowApprovalSignal, answer(actionId, 'a1'));
      await handle.signal(flowApprovalSignal, answer('another-step', 'a2'));
      await pollUntil(30_000, () => flow.shown.length, undefined, 'the first approval to show');
      expect(flow.shown[0].progress).toMatchObject({ remaining: 1, approvals: [{ userId: 'a1' }] });
      await handle.signal(flowApprovalSignal, answer(actionId, 'a2'));
      return handle.result();
    });
    expect(status).toBe('succeeded');
    expect(flow.shown.map((s) => s.event.kind)).toEqual(['approved', 'approved']);
    expect(flow.records).toEqual([
      expect.objectContaining({
        approved: true,
        approvals: [expect.objectContaining({ userId: 'a1' }), expect.objectContaining({ userId: 'a2' })],
      }),
    ]);
    expect(flow.notices.map((n) => n.reason)).toEqual(['opened']);
  });

  it('one rejection fails the flow run flow.rejected with its comment', async () => {
    const flow = stubFlow({ ...base, required: 3 });
    const { worker, handle } = await started(flow);
    const status = await worker.runUntil(async () => {
      await pollUntil(30_000, () => flow.opened[0], undefined, 'the approval to open');
      await handle.signal(flowApprovalSignal, answer(flow.opened[0].actionId, 'a1', false));
      return handle.result();
    });
    expect(status).toBe('failed');
    expect(flow.finished()).toEqual({ status: 'failed', error: { code: 'flow.rejected', message: 'a1 says no' } });
  });

  it('expiry → fail: flow.approval_expired exactly expiresAfter after the step opened', async () => {
    const flow = stubFlow({ ...base, expiresAfter: 'P1D', onExpiry: 'fail' });
    const { worker, handle } = await started(flow);
    expect(await worker.runUntil(handle.result())).toBe('failed');
    expect(flow.finished()?.error).toEqual({
      code: 'flow.approval_expired',
      message: 'The approval expired after P1D (0 of 1 approvals)',
    });
    const expiresAt = Date.parse(flow.opened[0].progress.expiresAt!);
    expect(expiresAt - flow.notices[0].at).toBeGreaterThan(24 * HOUR - 1000);
    const [fired] = await firedTimers(handle);
    expect(Math.abs(fired - expiresAt)).toBeLessThan(1000);
    expect(flow.records).toEqual([expect.objectContaining({ approved: false, approvals: [] })]);
  });

  it('expiry → escalate → approve: the clock restarts once for the wider approvers, and an approval goes on', async () => {
    const flow = stubFlow({ ...base, expiresAfter: 'PT2H', onExpiry: 'escalate', escalateTo: { roles: ['owner'] } });
    const { worker, handle } = await started(flow);
    const status = await worker.runUntil(async () => {
      await pollUntil(
        30_000,
        async () => (await handle.fetchHistory()).events?.some((e) => e.timerStartedEventAttributes),
        undefined,
        'the expiry timer',
      );
      await env.sleep('2 hours');
      await pollUntil(30_000, () => flow.shown.find((s) => s.event.kind === 'escalated'), undefined, 'the escalation');
      await handle.signal(flowApprovalSignal, answer(flow.opened[0].actionId, 'owner-1'));
      return handle.result();
    });
    expect(status).toBe('succeeded');
    const first = Date.parse(flow.opened[0].progress.expiresAt!);
    const escalated = flow.shown.find((s) => s.event.kind === 'escalated')!.progress;
    expect(escalated.escalated).toBe(true);
    expect(Date.parse(escalated.expiresAt!) - first).toBeGreaterThanOrEqual(2 * HOUR);
    expect(Date.parse(escalated.expiresAt!) - first).toBeLessThan(2 * HOUR + 1000);
    expect(flow.notices.map((n) => n.reason)).toEqual(['opened', 'escalated']);
    expect(Math.abs(flow.notices[1].at - first)).toBeLessThan(1000);
  });

  it('reminds every remindAfter until the expiry rejects', async () => {
    const flow = stubFlow({ ...base, expiresAfter: 'PT2H30M', onExpiry: 'reject', remindAfter: 'PT1H' });
    const { worker, handle } = await started(flow);
    expect(await worker.runUntil(handle.result())).toBe('failed');
    expect(flow.finished()?.error?.code).toBe('flow.rejected');
    expect(flow.notices.map((n) => n.reason)).toEqual(['opened', 'reminder', 'reminder']);
    // each reminder an hour after the notice before it (its timer starts once that notice is out)
    const gaps = flow.notices.slice(1).map((n, i) => n.at - flow.notices[i].at);
    gaps.forEach((gap) => expect(Math.abs(gap - HOUR)).toBeLessThan(5000));
  });
});
