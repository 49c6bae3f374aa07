import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { startEntryPoint, type EntryPoint } from './entry';

const ROOT = path.resolve(__dirname, '../..');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');

/** One of the topology's application processes (`tsx api/main.ts` or `tsx worker/main.ts`). */
export interface AppProcess {
  name: string;
  pid: number;
  logFile: string;
  exited: Promise<number | string | null>;
  alive(): boolean;
  /** SIGKILL to its whole process group (tsx and the node it starts), as the OOM killer would. */
  kill9(): void;
  /** SIGTERM, then SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

/** Where the topology's processes listen; the services' addresses come from the environment scripts/topology.sh exports. */
export interface TopologyPorts {
  entry: number;
  apis: [number, number];
}

/**
 * The ports scripts/topology.sh chose: the entry point on SVC_TOPOLOGY_PORT, the APIs on
 * SVC_TOPOLOGY_API_PORTS (`4401,4402`; by default the two after the entry point).
 */
export function topologyPorts(env: NodeJS.ProcessEnv = process.env): TopologyPorts {
  const entry = Number(env.SVC_TOPOLOGY_PORT ?? 4400);
  const [first, second] = (env.SVC_TOPOLOGY_API_PORTS ?? `${entry + 1},${entry + 2}`).split(',').map(Number);
  return { entry, apis: [first, second] };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function spawnApp(name: string, script: string, env: Record<string, string>, logFile: string): AppProcess {
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const fd = fs.openSync(logFile, 'a');
  const child: ChildProcess = spawn(TSX, [script], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', fd, fd],
  });
  fs.closeSync(fd);
  let code: number | string | null | undefined;
  const exited = new Promise<number | string | null>((resolve) =>
    child.once('exit', (c, signal) => {
      code = c ?? signal;
      resolve(code);
    }),
  );
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };
  return {
    name,
    pid: child.pid!,
    logFile,
    exited,
    alive: () => code === undefined,
    kill9: () => signalGroup('SIGKILL'),
    async stop(graceMs = 10_000) {
      if (code === undefined) {
        signalGroup('SIGTERM');
        const timer = setTimeout(() => signalGroup('SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      }
      // tsx may exit before the node process it started
      signalGroup('SIGKILL');
    },
  };
}

async function waitFor(proc: AppProcess, ready: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!proc.alive()) throw new Error(`${proc.name} exited during start-up; see ${proc.logFile}`);
    if (await ready().catch(() => false)) return;
    await sleep(250);
  }
  throw new Error(`${proc.name} not ready after ${timeoutMs} ms; see ${proc.logFile}`);
}

/**
 * The application half of the production shape (docs/operations.md): two API processes and two workers
 * on the PostgreSQL, Temporal and S3 storage scripts/topology.sh started, and one entry point spreading
 * requests over both APIs. `npm run topology` runs it until Ctrl-C; the topology drill kills and restarts
 * single processes through it.
 */
export class Topology {
  readonly apis: AppProcess[] = [];
  readonly workers: AppProcess[] = [];
  entry?: EntryPoint;

  constructor(
    readonly ports: TopologyPorts,
    readonly logDir: string,
    /** On top of the environment every process inherits (DATABASE_URL, TEMPORAL_ADDRESS, SVC_STORAGE_URL, …). */
    readonly extraEnv: Record<string, string> = {},
  ) {}

  apiUrl(i: number): string {
    return `http://127.0.0.1:${this.ports.apis[i]}`;
  }

  /** Starts (or restarts) API `i` (0 or 1); resolves once its /healthz answers. */
  async startApi(i: number): Promise<AppProcess> {
    const name = `api-${i + 1}`;
    const proc = spawnApp(
      name,
      'api/main.ts',
      {
        ...this.extraEnv,
        PORT: String(this.ports.apis[i]),
        HOST: '127.0.0.1',
        // the entry point is one trusted hop: per-client limits count the address it forwards
        SVC_TRUST_PROXY: '1',
        // names its PostgreSQL sessions, so an operator (or the drill) can tell the pools apart
        PGAPPNAME: `svc-${name}`,
      },
      path.join(this.logDir, `${name}.log`),
    );
    this.apis[i] = proc;
    const health = `${this.apiUrl(i)}/healthz`;
    await waitFor(proc, async () => (await fetch(health, { signal: AbortSignal.timeout(2000) })).ok, 120_000);
    return proc;
  }

  /** Starts (or restarts) worker `i`; resolves once it polls its task queue. */
  async startWorker(i: number): Promise<AppProcess> {
    const name = `worker-${i + 1}`;
    const logFile = path.join(this.logDir, `${name}.log`);
    const offset = fs.existsSync(logFile) ? fs.statSync(logFile).size : 0;
    const proc = spawnApp(
      name,
      'worker/main.ts',
      { LOG_LEVEL: 'info', ...this.extraEnv, PGAPPNAME: `svc-${name}` },
      logFile,
    );
    this.workers[i] = proc;
    await waitFor(proc, async () => fs.readFileSync(logFile, 'utf8').slice(offset).includes('worker running'), 180_000);
    return proc;
  }

  /** Everything: both APIs and both workers at once, then the entry point. */
  async start(): Promise<void> {
    await Promise.all([this.startApi(0), this.startApi(1), this.startWorker(0), this.startWorker(1)]);
    this.entry = await startEntryPoint(
      this.ports.entry,
      this.ports.apis.map((port) => ({ host: '127.0.0.1', port })),
    );
  }

  async stop(): Promise<void> {
    await this.entry?.close();
    await Promise.all([...this.apis, ...this.workers].map((p) => p.stop()));
  }
}
