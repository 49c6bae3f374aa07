import { Context } from '@temporalio/activity';
import type { WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { runWorkflow } from '../../workflows';
import type { TransitionPatch, TurnDecision } from '../../workflows/activityTypes';
import type { ApprovalPolicy } from '../../workflows/approvalPolicy';
import { approveSignal, stateQuery, type PendingAction, type PolicyProgress } from '../../workflows/messages';
import type { PolicyEvent } from '../../workflows/policyGate';
import { pollUntil } from '../helpers/poll';
import { startTimeSkipping, TIME_SKIPPING_SETUP_MS, timeSkippingQueue, workflowWorker } from '../helpers/timeSkipping';
import { stubRun } from './stubRun';

jest.setTimeout(180_000);

// The timers of an approval gate under a policy (docs/api/runs.md#approval-policies) on the test server's
// skipped clock: hours pass in milliseconds, and every time asserted is the server's (the history's event
// times, the activities' scheduled times), never the machine's.
let env: TestWorkflowEnvironment;
beforeAll(async () => {
  env = await startTimeSkipping();
}, TIME_SKIPPING_SETUP_MS);
afterAll(async () => {
  await env?.teardown();
});

const HOUR = 3_600_000;
const final: TurnDecision = { kind: 'final', output: { sent: true } };
const base = { approvers: { roles: ['admin' as const] }, required: 1, forbidSelfApproval: true, allowKeys: false };

type Gate = Extract<PendingAction, { type: 'approval' }> & PolicyProgress;

/** A run whose output waits for approval under `policy`, with what its gate showed and whom it told, and when. */
async function gatedRun(policy: ApprovalPolicy) {
  const run = stubRun({ approval: 'before_output', approvalPolicy: policy }, [final]);
  const opened: Gate[] = [];
  const shown: Array<{ action: Gate; event: PolicyEvent }> = [];
  const notices: Array<{ reason: string; at: number }> = [];
  const transition = run.activities.transition;
  run.activities.transition = async (runId: string, patch: TransitionPatch) => {
    if (patch.pendingAction) opened.push(patch.pendingAction as Gate);
    return transition(runId, patch);
  };
  run.activities.showApproval = async (_runId, action, event) => {
    shown.push({ action: action as Gate, event });
  };
  run.activities.notifyApprovers = async (_runId, _actionId, reason) => {
    // the server's clock when it scheduled this notice
    notices.push({ reason, at: Context.current().info.currentAttemptScheduledTimestampMs });
  };
  const taskQueue = timeSkippingQueue();
  const worker = await workflowWorker(env, taskQueue, run.activities);
  const handle = await env.client.workflow.start(runWorkflow, {
    args: [{ runId: 'run-1' }],
    workflowId: `run-${taskQueue}`,
    taskQueue,
  });
  return { run, worker, handle, opened, shown, notices };
}

const ms = (t: { seconds?: unknown; nanos?: number | null } | null | undefined) =>
  Number(String(t?.seconds ?? 0)) * 1000 + Math.floor((t?.nanos ?? 0) / 1e6);

/** The workflow's timers as the server kept them: how long each was set for, and when it fired. */
async function firedTimers(handle: WorkflowHandle): Promise<Array<{ forMs: number; firedAt: number }>> {
  const { events } = await handle.fetchHistory();
  const started = new Map<string, number>();
  const fired: Array<{ forMs: number; firedAt: number }> = [];
  for (const e of events ?? []) {
    const start = e.timerStartedEventAttributes;
    if (start) started.set(start.timerId!, ms(start.startToFireTimeout));
    const done = e.timerFiredEventAttributes;
    if (done) fired.push({ forMs: started.get(done.timerId!)!, firedAt: ms(e.eventTime) });
  }
  return fired;
}

/** Waits until the workflow has set a timer (the gate's clock runs), so skipping time now fires it. */
const timerSet = (handle: WorkflowHandle, count: number) =>
  pollUntil(
    30_000,
    async () => (await handle.fetchHistory()).events?.filter((e) => e.timerStartedEventAttributes).length ?? 0,
    (n) => n >= count,
    `timer ${count} to be set`,
  );

describe('approval policy timers', () => {
  it('expiry → reject: the gate expires exactly expiresAfter after it opened and the run is rejected', async () => {
    const { worker, handle, opened, notices } = await gatedRun({ ...base, expiresAfter: 'PT4H', onExpiry: 'reject' });
    const state = await worker.runUntil(handle.result());
    expect(state).toMatchObject({
      status: 'failed',
      error: { code: 'run.rejected', message: 'Rejected: the approval expired after PT4H (0 of 1 approvals)' },
    });
    const [gate] = opened;
    expect(gate).toMatchObject({ type: 'approval', remaining: 1, escalated: false, policy: { expiresAfter: 'PT4H' } });
    const [opening] = notices;
    expect(notices.map((n) => n.reason)).toEqual(['opened']);
    // the gate shows its expiry four hours after the server opened it, and the timer fired then
    expect(Date.parse(gate.expiresAt!) - opening.at).toBeGreaterThan(4 * HOUR - 1000);
    expect(Date.parse(gate.expiresAt!) - opening.at).toBeLessThanOrEqual(4 * HOUR);
    const [timer] = await firedTimers(handle);
    expect(Math.abs(timer.firedAt - Date.parse(gate.expiresAt!))).toBeLessThan(1000);
    expect(timer.forMs).toBeGreaterThan(4 * HOUR - 1000);
  });

  it('expiry → fail: onExpiry fail fails the run with run.approval_expired after exactly two days', async () => {
    const { worker, handle, opened } = await gatedRun({ ...base, required: 2, expiresAfter: 'P2D', onExpiry: 'fail' });
    const state = await worker.runUntil(handle.result());
    expect(state).toMatchObject({
      status: 'failed',
      error: { code: 'run.approval_expired', message: 'The approval expired after P2D (0 of 2 approvals)' },
    });
    const [timer] = await firedTimers(handle);
    expect(Math.abs(timer.firedAt - Date.parse(opened[0].expiresAt!))).toBeLessThan(1000);
    expect(timer.forMs).toBeGreaterThan(48 * HOUR - 1000);
  });

  it('expiry → escalate → approve: the first expiry widens the approvers and restarts the clock; an approval then opens the gate', async () => {
    const policy: ApprovalPolicy = {
      ...base,
      expiresAfter: 'PT4H',
      onExpiry: 'escalate',
      escalateTo: { roles: ['owner'] },
    };
    const { run, worker, handle, opened, shown, notices } = await gatedRun(policy);
    const state = await worker.runUntil(async () => {
      await run.reached('needs_approval');
      await timerSet(handle, 1);
      await env.sleep('4 hours');
      await pollUntil(30_000, () => shown.find((s) => s.event.kind === 'escalated'), undefined, 'the escalation');
      const actionId = (await handle.query(stateQuery)).pendingAction!.id;
      await handle.signal(approveSignal, {
        actionId,
        approved: true,
        comment: 'escalated, fine',
        by: { userId: 'owner-1', keyId: null },
        at: new Date(await env.currentTimeMs()).toISOString(),
      });
      return handle.result();
    });
    expect(state).toMatchObject({ status: 'succeeded', output: { sent: true } });
    expect(run.statuses).toEqual(['running', 'needs_approval', 'running', 'succeeded']);

    const first = Date.parse(opened[0].expiresAt!);
    const escalation = shown.find((s) => s.event.kind === 'escalated')!;
    expect(escalation.action).toMatchObject({ escalated: true, remaining: 1, approvals: [] });
    // the clock restarted when the first expiry fired: four more hours
    expect(Date.parse(escalation.action.expiresAt!) - first).toBeGreaterThanOrEqual(4 * HOUR);
    expect(Date.parse(escalation.action.expiresAt!) - first).toBeLessThan(4 * HOUR + 1000);
    expect(notices.map((n) => n.reason)).toEqual(['opened', 'escalated']);
    expect(Math.abs(notices[1].at - first)).toBeLessThan(1000);
    const [timer] = await firedTimers(handle);
    expect(Math.abs(timer.firedAt - first)).toBeLessThan(1000);
    const approved = shown.find((s) => s.event.kind === 'approved')!;
    expect(approved.event).toMatchObject({ answer: { userId: 'owner-1', comment: 'escalated, fine' } });
    expect(approved.action).toMatchObject({ remaining: 0, escalated: true });
  });

  it('a second expiry after the escalation rejects', async () => {
    const policy: ApprovalPolicy = {
      ...base,
      expiresAfter: 'PT1H',
      onExpiry: 'escalate',
      escalateTo: { roles: ['owner'] },
    };
    const { worker, handle, opened, shown } = await gatedRun(policy);
    const state = await worker.runUntil(handle.result());
    expect(state).toMatchObject({ status: 'failed', error: { code: 'run.rejected' } });
    expect(shown.map((s) => s.event.kind)).toEqual(['escalated']);
    const timers = await firedTimers(handle);
    expect(timers).toHaveLength(2);
    expect(Math.abs(timers[1].firedAt - (Date.parse(opened[0].expiresAt!) + HOUR))).toBeLessThan(1000);
  });

  it('reminds the approvers every remindAfter, on the server clock, until the gate expires', async () => {
    const policy: ApprovalPolicy = { ...base, expiresAfter: 'PT3H30M', onExpiry: 'reject', remindAfter: 'PT1H' };
    const { worker, handle, opened, notices } = await gatedRun(policy);
    const state = await worker.runUntil(handle.result());
    expect(state).toMatchObject({ status: 'failed', error: { code: 'run.rejected' } });
    expect(notices.map((n) => n.reason)).toEqual(['opened', 'reminder', 'reminder', 'reminder']);
    // each reminder an hour after the notice before it (its timer starts once that notice is out)
    const gaps = notices.slice(1).map((n, i) => n.at - notices[i].at);
    gaps.forEach((gap) => expect(Math.abs(gap - HOUR)).toBeLessThan(5000));
    const timers = await firedTimers(handle);
    // three reminders, then the expiry half an hour after the last
    expect(timers).toHaveLength(4);
    expect(Math.abs(timers[3].firedAt - Date.parse(opened[0].expiresAt!))).toBeLessThan(1000);
  });
});
