import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '../../..');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');

/** A child process of ours (the API, a worker, a baseline server), in its own process group. */
export interface ServiceProcess {
  name: string;
  child: ChildProcess;
  logFile: string;
  /** Resolves with the exit code (or signal name) once the process is gone. */
  exited: Promise<number | string | null>;
  alive(): boolean;
  /** SIGKILL to the whole group (tsx and the node it starts), the way the OOM killer would. */
  kill9(): void;
  /** SIGTERM, then SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

const running = new Set<ServiceProcess>();

// Whatever ends this process, none of our children may outlive it.
process.on('exit', () => {
  for (const p of running) p.kill9();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts `tsx <script>` from the repository root with `env` on top of ours. Its output goes to
 * `logFile` (not through this process, so the load generator does not pay for the children's logs).
 * Detached: its own process group, so `kill9` reaches the node process tsx starts as well.
 */
export function spawnTsx(name: string, script: string, env: Record<string, string>, logFile: string): ServiceProcess {
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const fd = fs.openSync(logFile, 'a');
  // BENCH_PROFILE=<dir>: each process writes V8 CPU profiles under `<dir>/<name>/` when it exits, one
  // per thread (the largest is the main thread; bench/README.md, "Where the time goes").
  const profileDir = process.env.BENCH_PROFILE;
  const [cmd, args] = profileDir
    ? [process.execPath, ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profileDir, name)}`, '--import', 'tsx', script]]
    : [TSX, [script]];
  const child = spawn(cmd, args, {
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
      running.delete(proc);
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
  const proc: ServiceProcess = {
    name,
    child,
    logFile,
    exited,
    alive: () => code === undefined,
    kill9: () => signalGroup('SIGKILL'),
    async stop(graceMs = 10_000) {
      if (code !== undefined) return;
      signalGroup('SIGTERM');
      const timer = setTimeout(() => signalGroup('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
      // tsx may exit before the node process it started; make sure the group is gone too.
      signalGroup('SIGKILL');
    },
  };
  running.add(proc);
  return proc;
}

/** The last `lines` lines of a log file, for error messages. */
export function logTail(file: string, lines = 20): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** Waits until `probe` resolves true; throws with the log tail when the process dies or time runs out. */
export async function waitUntilReady(
  proc: ServiceProcess,
  probe: () => Promise<boolean>,
  timeoutMs = 120_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!proc.alive()) throw new Error(`${proc.name} exited during start-up:\n${logTail(proc.logFile)}`);
    if (await probe().catch(() => false)) return;
    await sleep(200);
  }
  throw new Error(`${proc.name} not ready after ${timeoutMs} ms:\n${logTail(proc.logFile)}`);
}

/** True once `GET url` answers 200. */
export const httpOk = (url: string) => async () => (await fetch(url, { signal: AbortSignal.timeout(2000) })).ok;

/** True once the log file (from `offset` on) contains `text`. */
export const logContains =
  (file: string, text: string, offset = 0) =>
  async () => {
    const content = fs.readFileSync(file, 'utf8');
    return content.slice(offset).includes(text);
  };

/** Current size of a file, to look only at what is written after now. */
export const fileSize = (file: string) => (fs.existsSync(file) ? fs.statSync(file).size : 0);

/** `tsx api/main.ts` on `port`, resolved once /healthz answers. */
export async function startApiProcess(
  name: string,
  port: number,
  env: Record<string, string>,
  logDir: string,
): Promise<ServiceProcess & { url: string }> {
  const proc = spawnTsx(
    name,
    'api/main.ts',
    { ...env, PORT: String(port), HOST: '127.0.0.1' },
    `${logDir}/${name}.log`,
  );
  const url = `http://127.0.0.1:${port}`;
  await waitUntilReady(proc, httpOk(`${url}/healthz`));
  return Object.assign(proc, { url });
}

/** A worker process (`script` defaults to the service's own `worker/main.ts`), resolved once it polls. */
export async function startWorkerProcess(
  name: string,
  env: Record<string, string>,
  logDir: string,
  script = 'worker/main.ts',
  readyText = 'worker running',
): Promise<ServiceProcess> {
  const logFile = `${logDir}/${name}.log`;
  const offset = fileSize(logFile);
  // LOG_LEVEL info at least: readiness is the "worker running" log line.
  const proc = spawnTsx(name, script, { LOG_LEVEL: 'info', ...env }, logFile);
  await waitUntilReady(proc, logContains(logFile, readyText, offset), 180_000);
  return proc;
}
