import type { Client } from '@temporalio/client';
import type { Orm } from '../../db/orm';
import type { KeyPool } from '../../test/helpers/live/accounts';
import type { ServiceProcess } from '../../test/helpers/live/processes';

/** What every benchmark case gets: the running processes' URLs, clients, and the load settings. */
export interface BenchContext {
  /** The API under test (`tsx api/main.ts`), its runs executed by the bench worker. */
  apiUrl: string;
  /** A second API process whose task queue no worker polls: create throughput without execution. */
  admissionUrl: string;
  /** The bare Koa server (bench/baseline/server.ts). */
  baselineUrl: string;
  orm: Orm;
  client: Client;
  /** Task queue of the baseline workflows (polled by the bench worker). */
  bareQueue: string;
  /** Task queue of the service's runs (polled by the bench worker), for cases that start more workers. */
  runsQueue: string;
  /** Environment every process under test gets on top of ours, for cases that start more of them. */
  processEnv: Record<string, string>;
  /** Keys of the main workspace. */
  pool: KeyPool;
  workspaceId: string;
  echoAgentId: string;
  scriptedAgentId: string;
  /** HTTP connections of autocannon, and virtual users of the closed loops. */
  connections: number;
  concurrency: number;
  seconds: number;
  warmupSeconds: number;
  /** Per-process log files. */
  logDir: string;
  /** The API under test and its worker, whose memory the soak case watches. */
  processes: { api: ServiceProcess; worker: ServiceProcess };
  /** Results of the cases already run in this process, in order (the soak case reuses case 1's rate). */
  earlier: CaseResult[];
}

/** One case's outcome: its Markdown tables (printed) and its numbers (written to latest.json). */
export interface CaseResult {
  title: string;
  markdown: string;
  data: Record<string, unknown>;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
