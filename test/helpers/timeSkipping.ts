import { randomUUID } from 'node:crypto';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime, Worker, makeTelemetryFilterString } from '@temporalio/worker';
import { temporal } from '@temporalio/proto';
import { WorkflowClient, type WorkflowHandle } from '@temporalio/client';
import { workflowBundle } from './worker';

let runtimeInstalled = false;

/** Setup's allowance: a JVM start and a webpack bundle on a busy two-core machine. */
export const TIME_SKIPPING_SETUP_MS = 180_000;

/**
 * Temporal's time-skipping test server (scripts/temporal-test-server.sh installs it; `npm test` puts its
 * launcher in SVC_TEMPORAL_TEST_SERVER). Time moves only when every workflow waits on a timer or a retry's
 * backoff, so a test of a 1 s backoff or a 15-minute idle timeout takes milliseconds, and what it asserts
 * about time is the server's clock, not the machine's (docs/testing.md).
 *
 * One environment per test file (its clock is shared by every workflow on it, so the file's tests run one
 * after another, as jest runs them), started in `beforeAll` with `TIME_SKIPPING_SETUP_MS`.
 */
export async function startTimeSkipping(): Promise<TestWorkflowEnvironment> {
  const path = process.env.SVC_TEMPORAL_TEST_SERVER;
  if (!path) {
    throw new Error(
      'SVC_TEMPORAL_TEST_SERVER is not set: run the tests through `npm test`, or set it to the path `bash scripts/temporal-test-server.sh` prints',
    );
  }
  if (!runtimeInstalled) {
    // The stand-in activities fail on purpose and the test server lacks some of a real server's capabilities
    // (the SDK's core warns of it at every worker start): neither is news to print.
    Runtime.install({
      logger: new DefaultLogger('ERROR'),
      telemetryOptions: { logging: { filter: makeTelemetryFilterString({ core: 'ERROR', other: 'ERROR' }) } },
    });
    runtimeInstalled = true;
  }
  // the bundle (webpack, the slow part) is built while the JVM starts, and charged to the file's setup
  const [env] = await Promise.all([startServer(path), workflowBundle()]);
  // The workflows tag everything they start with the service's search attributes, which the test server,
  // like any server, refuses until they are registered.
  await env.connection.operatorService.addSearchAttributes({
    namespace: env.namespace ?? 'default',
    searchAttributes: {
      SvcWorkspaceId: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD,
      SvcAgentId: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD,
      SvcRunStatus: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD,
    },
  });
  return env;
}

/**
 * The SDK gives a new server 5 s to answer. A JVM on a loaded two-core machine occasionally needs longer even
 * with the class-data-sharing archive; a second start then finds its files in the page cache.
 */
async function startServer(path: string): Promise<TestWorkflowEnvironment> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await TestWorkflowEnvironment.createTimeSkipping({
        server: { executable: { type: 'existing-path', path } },
      });
    } catch (err) {
      if (attempt >= 4) throw err;
    }
  }
}

/** A task queue of the test's own, so one test's worker never takes another's workflow. */
export const timeSkippingQueue = () => `ts-${randomUUID()}`;

/**
 * A worker of our real workflow bundle on `taskQueue`, with `activities` standing in for the service's
 * (the point of these tests is the workflow's logic: which activity, when, how often, in what order).
 */
export async function workflowWorker(
  env: TestWorkflowEnvironment,
  taskQueue: string,
  activities: object,
): Promise<Worker> {
  return Worker.create({
    connection: env.nativeConnection,
    namespace: env.namespace,
    taskQueue,
    workflowBundle: await workflowBundle(),
    activities,
  });
}

/**
 * How the workflow closed (its result, or the error its result throws), waited for while the test server's
 * clock stands still: what a test of a cancel waits with.
 *
 * The time-skipping client's `result()` lets the server skip time while it waits. A cancel that reaches a
 * workflow blocked on a long timer then races the skip: if the timer fires while the workflow task that
 * cancels it is in progress, Java's test server refuses the task's CancelTimer and the run never gets another
 * task (the real server drops the fired timer instead), so the test hangs. Nothing a cancel test asserts needs
 * time to move, so it waits through a plain client, which never unlocks the clock.
 */
export function settledWithClockHeld(env: TestWorkflowEnvironment, handle: WorkflowHandle): Promise<unknown> {
  const plain = new WorkflowClient({ connection: env.connection, namespace: env.namespace });
  return plain
    .getHandle(handle.workflowId)
    .result()
    .then(
      (value: unknown) => value,
      (err: unknown) => err,
    );
}
