import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Client } from '@temporalio/client';
import type { Orm } from '../../db/orm';
import { createAgent, createWorkspace, KeyPool } from '../helpers/live/accounts';
import { expectStatus, request } from '../helpers/live/http';
import { ROOT, startApiProcess, startWorkerProcess, type ServiceProcess } from '../helpers/live/processes';

/** The failure drills' shared state: the real API and worker processes, and clients of the services. */
export interface DrillEnv {
  apiPort: number;
  logDir: string;
  /** Environment of the API and worker processes (on top of ours: DATABASE_URL, TEMPORAL_ADDRESS). */
  childEnv: Record<string, string>;
  api: ServiceProcess & { url: string };
  worker: ServiceProcess;
  orm: Orm;
  client: Client;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts (or, after a kill, restarts) the API process on the drills' fixed port. */
export async function startApi(env: DrillEnv): Promise<void> {
  env.api = await startApiProcess('api', env.apiPort, env.childEnv, env.logDir);
}

/** Starts a worker process (`tsx worker/main.ts`), as `npm run worker` does. */
export async function startWorker(env: DrillEnv): Promise<void> {
  env.worker = await startWorkerProcess('worker', env.childEnv, env.logDir);
}

const run = promisify(execFile);

/** `bash scripts/<service>.sh <command>` with the drills' environment (data dir, ports). */
export async function serviceScript(service: 'postgres' | 'temporal', command: 'start' | 'stop'): Promise<void> {
  await run('bash', [path.join(ROOT, `scripts/${service}.sh`), command], { cwd: ROOT, timeout: 180_000 });
}

/** A workspace of its own for one drill: scale plan, plenty of credits, keys, and an `Authorization` source. */
export async function drillWorkspace(env: DrillEnv, requests = 2000) {
  const ws = await createWorkspace(env.api.url, env.orm, 1000);
  const pool = new KeyPool(env.orm, ws.id);
  await pool.ensure(requests);
  return { id: ws.id, pool, auth: () => ({ authorization: pool.next() }) };
}

export type DrillWorkspace = Awaited<ReturnType<typeof drillWorkspace>>;

/** Agents on the built-in scripted model: plain, approving its output first, or reviewing it. */
export async function scriptedAgent(
  env: DrillEnv,
  ws: DrillWorkspace,
  settings: Record<string, unknown> = {},
): Promise<string> {
  return createAgent(env.api.url, ws.pool.next(), { presetId: 'scripted', settings });
}

export async function createRun(env: DrillEnv, ws: DrillWorkspace, agentId: string, input: unknown): Promise<any> {
  return expectStatus(201, `${env.api.url}/v1/runs`, { headers: ws.auth(), json: { agentId, input } });
}

/** Every run of the workspace, by id, through the list route (one request per 100 runs). */
export async function listRuns(env: DrillEnv, ws: DrillWorkspace): Promise<Map<string, any>> {
  const runs = new Map<string, any>();
  let cursor: string | null = null;
  do {
    const page: any = await expectStatus(
      200,
      `${env.api.url}/v1/runs?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      { headers: ws.auth() },
    );
    for (const r of page.runs) runs.set(r.id, r);
    cursor = page.nextCursor;
  } while (cursor);
  return runs;
}

/**
 * Polls the list until `done(run)` holds for every id; returns the runs as last seen (some may
 * still fail `done` when time ran out).
 */
export async function waitForRuns(
  env: DrillEnv,
  ws: DrillWorkspace,
  ids: string[],
  done: (run: any) => boolean,
  timeoutMs: number,
): Promise<Map<string, any>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const runs = await listRuns(env, ws).catch(() => new Map<string, any>());
    if (ids.every((id) => runs.has(id) && done(runs.get(id))) || Date.now() > deadline) return runs;
    await sleep(500);
  }
}

export const TERMINAL = ['succeeded', 'failed', 'cancelled'];

/** Collects the failed checks of one drill; the verdict is PASS when there are none. */
export class Checks {
  readonly failures: string[] = [];
  readonly notes: string[] = [];

  ok(condition: boolean, failure: string): boolean {
    if (!condition) this.failures.push(failure);
    return condition;
  }

  note(text: string): void {
    this.notes.push(text);
  }
}

/** Subscribes a URL to run events through the API. */
export async function subscribe(env: DrillEnv, ws: DrillWorkspace, url: string, events: string[]): Promise<string> {
  const sub = await expectStatus(201, `${env.api.url}/v1/webhooks`, {
    headers: ws.auth(),
    json: { url, events, secret: 'drill-secret-0123456789' },
  });
  return sub.id;
}

/** The delivery log of a subscription (all pages). */
export async function deliveries(env: DrillEnv, ws: DrillWorkspace, subscriptionId: string): Promise<any[]> {
  const all: any[] = [];
  let cursor: string | null = null;
  do {
    const res: { status: number; body: any } = await request(
      `${env.api.url}/v1/webhooks/${subscriptionId}/deliveries?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      { headers: ws.auth() },
    );
    if (res.status !== 200) throw new Error(`deliveries: ${res.status} ${JSON.stringify(res.body)}`);
    all.push(...res.body.deliveries);
    cursor = res.body.nextCursor;
  } while (cursor);
  return all;
}
