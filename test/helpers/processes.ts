import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

/**
 * A real worker process (`tsx worker/main.ts`, or another `script` that logs "worker running" once it
 * polls), in its own process group so a test can kill -9 it the way an operator or the OOM killer would.
 * Resolves once it logs that it polls.
 */
export async function spawnWorker(
  env: Record<string, string>,
  script = 'worker/main.ts',
): Promise<{ child: ChildProcess; kill9(): void; output: string[] }> {
  const output: string[] = [];
  const child = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), [script], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => output.push(String(d)));
  child.stderr!.on('data', (d) => output.push(String(d)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start:\n${output.join('')}`)), 90_000);
    const check = () => {
      if (output.join('').includes('worker running')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`worker exited with ${code}:\n${output.join('')}`));
    });
  });
  return {
    child,
    output,
    kill9() {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    },
  };
}
