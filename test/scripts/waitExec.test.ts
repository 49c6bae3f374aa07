import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const REPO = path.resolve(__dirname, '../..');
const COMMON = path.join(REPO, 'scripts/lib/common.sh');

async function bash(script: string): Promise<string> {
  const { stdout } = await run('bash', ['-c', `source ${JSON.stringify(COMMON)}\n${script}`], { timeout: 60_000 });
  return stdout.trim();
}

/**
 * A service script starts its server in the background and writes the pid to a file; the "is it running"
 * checks read that pid's command line. Until the forked shell has exec'd the server, that command line is
 * the script's own, so a check made at once calls a healthy start dead. svc_wait_exec closes that gap.
 */
describe('svc_wait_exec (scripts/lib/common.sh)', () => {
  it('returns once the forked shell has become the program, every time', async () => {
    const out = await bash(`
      wrong=0
      for i in $(seq 100); do
        setsid sleep 2 >/dev/null 2>&1 </dev/null &
        pid=$!
        svc_wait_exec "$pid" || { echo "failed for a live process"; exit 1; }
        tr '\\0' ' ' <"/proc/$pid/cmdline" | grep -q '^sleep 2' || wrong=$((wrong + 1))
      done
      echo "$wrong"`);
    expect(out).toBe('0');
  });

  it('fails for a program that exits at once', async () => {
    const out = await bash(`
      setsid false >/dev/null 2>&1 </dev/null &
      pid=$!
      sleep 0.3
      svc_wait_exec "$pid" 2 && echo alive || echo gone`);
    expect(out).toBe('gone');
  });

  it('is called by every script right after it records a background pid', async () => {
    const dir = path.join(REPO, 'scripts');
    const files = (await readdir(dir)).filter((f) => f.endsWith('.sh'));
    const missing: string[] = [];
    for (const file of files) {
      const lines = (await readFile(path.join(dir, file), 'utf8')).split('\n');
      lines.forEach((line, i) => {
        // a pid file written from $! (or from a variable holding it)
        if (!/^\s*echo "?\$(!|pid)"? >"?\$[A-Z_]*(PID_FILE|STATE_DIR\/[^"]*\.pid)/.test(line)) return;
        if (!lines.slice(i + 1, i + 3).some((next) => next.includes('svc_wait_exec'))) missing.push(`${file}:${i + 1}`);
      });
    }
    expect(missing).toEqual([]);
  });
});
