import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { webhookDeliveryWorkflow, webhookFanoutWorkflow } from '../../workflows';
import type { AnnouncedRun, FirstAttempts } from '../../workflows/activityTypes';
import { startTimeSkipping, TIME_SKIPPING_SETUP_MS, timeSkippingQueue, workflowWorker } from '../helpers/timeSkipping';

// Each file bundles the workflows and starts a JVM test server; on a busy two-core machine that alone can take
// most of jest's default minute, while the skipped clock keeps what is asserted independent of it.
jest.setTimeout(180_000);

// The delivery workflows' retry schedule, asserted on the server's skipped clock: 3 attempts in all,
// 1 s then 2 s apart (docs/api/webhooks.md), whatever the machine's load.
let env: TestWorkflowEnvironment;
beforeAll(async () => {
  env = await startTimeSkipping();
}, TIME_SKIPPING_SETUP_MS);
afterAll(async () => {
  await env?.teardown();
});

/** What the stand-in activities saw: every attempt with the server's time when it ran. */
function deliveryLog(succeedsAt: (deliveryId: string, attempt: number) => boolean = () => false) {
  const attempts: Array<{ deliveryId: string; attempt: number; prior: number; scheduledAt: number }> = [];
  const failed: string[] = [];
  let claims = 0;
  return {
    attempts,
    failed,
    claims: () => claims,
    activities: {
      async claimDeliverySlot() {
        claims++;
      },
      async deliverWebhook(deliveryId: string, priorAttempts = 0) {
        const info = Context.current().info;
        attempts.push({
          deliveryId,
          attempt: info.attempt,
          prior: priorAttempts,
          scheduledAt: await env.currentTimeMs(),
        });
        if (!succeedsAt(deliveryId, priorAttempts + info.attempt))
          throw ApplicationFailure.create({ message: 'receiver answered 500' });
      },
      async failDelivery(deliveryId: string) {
        failed.push(deliveryId);
      },
    },
  };
}

const gaps = (times: number[]) => times.slice(1).map((t, i) => t - times[i]);

describe('a webhook delivery', () => {
  it('makes 3 attempts, 1 s then 2 s apart on the workflow clock, then marks the delivery failed', async () => {
    const log = deliveryLog();
    const taskQueue = timeSkippingQueue();
    const worker = await workflowWorker(env, taskQueue, log.activities);
    const outcome = await worker.runUntil(
      env.client.workflow.execute(webhookDeliveryWorkflow, {
        args: [{ deliveryId: 'd1' }],
        workflowId: `delivery-${taskQueue}`,
        taskQueue,
      }),
    );
    expect(outcome).toBe('failed');
    expect(log.attempts.map((a) => a.attempt)).toEqual([1, 2, 3]);
    const [first, second] = gaps(log.attempts.map((a) => a.scheduledAt));
    // the backoff is the floor; the ceiling tells 1 s from the next step of the schedule (2 s, then 4 s)
    expect(first).toBeGreaterThanOrEqual(1000);
    expect(first).toBeLessThan(2000);
    expect(second).toBeGreaterThanOrEqual(2000);
    expect(second).toBeLessThan(4000);
    expect(log.failed).toEqual(['d1']);
  });

  it('stops at the first attempt that succeeds and marks nothing failed', async () => {
    const log = deliveryLog((_id, attempt) => attempt === 2);
    const taskQueue = timeSkippingQueue();
    const worker = await workflowWorker(env, taskQueue, log.activities);
    const outcome = await worker.runUntil(
      env.client.workflow.execute(webhookDeliveryWorkflow, {
        args: [{ deliveryId: 'd2' }],
        workflowId: `delivery-${taskQueue}`,
        taskQueue,
      }),
    );
    expect(outcome).toBe('succeeded');
    expect(log.attempts.map((a) => a.attempt)).toEqual([1, 2]);
    expect(log.failed).toEqual([]);
  });

  it('after a failed first attempt in the fan-out, waits 1 s and makes attempts 2 and 3 two seconds apart', async () => {
    const log = deliveryLog((id) => id === 'slotless');
    let fanOutAt = 0;
    const taskQueue = timeSkippingQueue();
    const run: AnnouncedRun = {
      id: 'r1',
      workspaceId: 'w1',
      status: 'succeeded',
      output: null,
      error: null,
      pendingAction: null,
    };
    const worker = await workflowWorker(env, taskQueue, {
      ...log.activities,
      async fanOutFirstAttempts(): Promise<FirstAttempts> {
        fanOutAt = await env.currentTimeMs();
        return { succeeded: 1, gone: 0, retry: ['late'], queued: ['slotless'] };
      },
    });
    const outcome = await worker.runUntil(
      env.client.workflow.execute(webhookFanoutWorkflow, {
        args: [{ run, deliveryQueue: taskQueue }],
        workflowId: `fanout-${taskQueue}`,
        taskQueue,
      }),
    );
    const late = log.attempts.filter((a) => a.deliveryId === 'late');
    // attempts 2 and 3 of the delivery whose attempt 1 the fan-out made, numbered after it
    expect(late.map((a) => a.prior + a.attempt)).toEqual([2, 3]);
    expect(late[0].scheduledAt - fanOutAt).toBeGreaterThanOrEqual(1000);
    expect(late[1].scheduledAt - late[0].scheduledAt).toBeGreaterThanOrEqual(2000);
    expect(late[1].scheduledAt - late[0].scheduledAt).toBeLessThan(4000);
    expect(log.failed).toEqual(['late']);
    // the one that waited for a slot makes its attempt 1 here, after its claim
    expect(log.attempts.filter((a) => a.deliveryId === 'slotless').map((a) => a.attempt)).toEqual([1]);
    expect(outcome).toEqual({ succeeded: 2, failed: 1 });
  });
});
