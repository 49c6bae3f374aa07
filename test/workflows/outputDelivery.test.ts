import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { outputRedeliveryWorkflow } from '../../workflows';
import { startTimeSkipping, TIME_SKIPPING_SETUP_MS, timeSkippingQueue, workflowWorker } from '../helpers/timeSkipping';

// Each file bundles the workflows and starts a JVM test server; on a busy two-core machine that alone can take
// most of jest's default minute, while the skipped clock keeps what is asserted independent of it.
jest.setTimeout(180_000);

// A saved output's delivery: 3 attempts in all, 1 s then 2 s apart (docs/api/output-connections.md), on the
// test server's clock; the HTTP side (signature, bytes, the log) is test/outputs/delivery.test.ts.
let env: TestWorkflowEnvironment;
beforeAll(async () => {
  env = await startTimeSkipping();
}, TIME_SKIPPING_SETUP_MS);
afterAll(async () => {
  await env?.teardown();
});

describe('an output delivery', () => {
  it.each([
    ['a receiver that always fails: 3 attempts 1 s then 2 s apart, then failed', 99, 'failed', 3],
    ['a receiver that takes the second attempt: 2 attempts, succeeded', 2, 'succeeded', 2],
  ] as const)('%s', async (_name, succeedsAt, outcome, attempts) => {
    const times: number[] = [];
    const failed: string[] = [];
    const taskQueue = timeSkippingQueue();
    const worker = await workflowWorker(env, taskQueue, {
      async deliverOutput() {
        times.push(await env.currentTimeMs());
        if (Context.current().info.attempt !== succeedsAt) {
          throw ApplicationFailure.create({ message: 'receiver answered 500' });
        }
      },
      async failOutputDelivery(deliveryId: string) {
        failed.push(deliveryId);
      },
    });
    const result = await worker.runUntil(
      env.client.workflow.execute(outputRedeliveryWorkflow, {
        args: [{ deliveryId: 'o1' }],
        workflowId: `output-${taskQueue}`,
        taskQueue,
      }),
    );
    expect(result).toBe(outcome);
    expect(times).toHaveLength(attempts);
    const gaps = times.slice(1).map((t, i) => t - times[i]);
    // each backoff is the floor; the ceiling tells it from the next step of the schedule
    expect(gaps[0]).toBeGreaterThanOrEqual(1000);
    expect(gaps[0]).toBeLessThan(2000);
    if (attempts === 3) {
      expect(gaps[1]).toBeGreaterThanOrEqual(2000);
      expect(gaps[1]).toBeLessThan(4000);
    }
    expect(failed).toEqual(outcome === 'failed' ? ['o1'] : []);
  });
});
