import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { bundleWorkflowCode, NativeConnection, Runtime, DefaultLogger } from '@temporalio/worker';
import type { Config } from '../../platform/config';
import type { Orm } from '../../db/orm';
import type { Mailer } from '../../platform/mailer';
import { createWorker, TRACING_WORKFLOW_MODULES, type ServiceWorker } from '../../worker/main';
import type { Tracing } from '../../platform/tracing';
import { createTemporal } from '../../platform/temporal';

let bundle: Promise<{ code: string }> | undefined;
let tracedBundle: Promise<{ code: string }> | undefined;
let runtimeInstalled = false;

/**
 * The workflow bundle: the one jest's global set-up built for the whole run (test/helpers/globalBundle.ts), or,
 * when a file runs outside it, one built for this file; `traced`, the one with the tracing interceptors in it
 * (docs/operations.md#traces), built by the few files that want it.
 */
export function workflowBundle(traced = false): Promise<{ code: string }> {
  if (traced) {
    tracedBundle ??= bundleWorkflowCode({
      workflowsPath: require.resolve('../../workflows'),
      workflowInterceptorModules: TRACING_WORKFLOW_MODULES,
      logger: new DefaultLogger('WARN'),
    });
    return tracedBundle;
  }
  const built = process.env.SVC_TEST_WORKFLOW_BUNDLE;
  bundle ??= built
    ? readFile(built, 'utf8').then((code) => ({ code }))
    : bundleWorkflowCode({ workflowsPath: require.resolve('../../workflows'), logger: new DefaultLogger('WARN') });
  return bundle;
}

/** A task queue of the test file's own, so workers of other test files never take its runs. */
export const testTaskQueue = () => `runs-test-${randomUUID()}`;

export interface RunningWorker {
  worker: ServiceWorker;
  /** Graceful shutdown. */
  stop(): Promise<void>;
}

/** Starts a real worker against the test Temporal server and PostgreSQL. */
export async function startWorker(
  config: Config,
  orm: Orm,
  opts: { mailer?: Mailer; tracing?: Tracing } = {},
): Promise<RunningWorker> {
  if (!runtimeInstalled) {
    Runtime.install({ logger: new DefaultLogger('WARN') });
    runtimeInstalled = true;
  }
  const connection = await NativeConnection.connect({ address: config.temporal.address });
  const temporal = createTemporal(config.temporal);
  const worker = await createWorker(config, orm, connection, {
    workflowBundle: await workflowBundle(Boolean(opts.tracing)),
    temporal,
    mailer: opts.mailer,
    tracing: opts.tracing,
  });
  const running = worker.run();
  return {
    worker,
    async stop() {
      worker.shutdown();
      await running.catch(() => undefined);
      await connection.close();
      await temporal.close();
    },
  };
}

/**
 * The API plus an in-process worker on a task queue of their own, as most run tests need them.
 * `overrides` change the configuration of both (e.g. an OpenAI-compatible endpoint).
 */
export async function startRunStack(
  overrides: Partial<Config> = {},
  opts: { mailer?: Mailer; tracing?: Tracing; listenPort?: number } = {},
): Promise<{ h: import('./harness').Harness; worker: RunningWorker; stop(): Promise<void> }> {
  const { startApi } = await import('./harness');
  const { loadConfig } = await import('../../platform/config');
  const base = loadConfig(process.env);
  const h = await startApi(
    { temporal: { ...base.temporal, taskQueue: testTaskQueue() }, ...overrides },
    {},
    { listenPort: opts.listenPort },
  );
  const worker = await startWorker(h.config, h.orm, opts);
  return {
    h,
    worker,
    async stop() {
      await worker.stop();
      await h.close();
    },
  };
}
