import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from './motoServer';

const ROOT = join(__dirname, '..', '..');

/** A behaviour LLMock's control API queues for the next matching request (its `/_llmock/scenario` JSON). */
export type Behavior =
  | { type: 'reply'; text?: string; tool_calls?: Array<{ name: string; arguments: Record<string, unknown> }> }
  | { type: 'fail'; status: number; retry_after?: number; message?: string };

/** A running LLMock on 127.0.0.1: an OpenAI-compatible server from PyPI (scripts/llmock.sh). */
export interface LlmockServer {
  /** The base URL the OpenAI SDK takes (`…/v1`). */
  baseUrl: string;
  /** Queues behaviours, each for the next request. */
  queue(...behaviors: Behavior[]): Promise<void>;
  stop(): Promise<void>;
}

/** `llmock` of the pinned LLMock: `npm test` exports it; alone, the install script finds or installs it. */
function llmockPath(): string {
  if (process.env.SVC_LLMOCK) return process.env.SVC_LLMOCK;
  try {
    return execFileSync('bash', [join(ROOT, 'scripts', 'llmock.sh')], { encoding: 'utf8' }).trim();
  } catch (err) {
    throw new Error(
      `scripts/llmock.sh could not provide LLMock (run it once with network access to PyPI): ${String((err as { stderr?: string }).stderr ?? err)}`,
    );
  }
}

/**
 * Starts `llmock serve` on a free port of 127.0.0.1 with no latency and no random faults, and waits until it
 * answers. Unscripted, it answers every chat completion with text of its own (and calls an offered tool
 * first); queued behaviours script the next answers. It keeps everything in memory: stopping it forgets all.
 */
export async function startLlmock(): Promise<LlmockServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    llmockPath(),
    ['serve', '--host', '127.0.0.1', '--port', String(port), '--latency-ms', '0', '--log-level', 'warning'],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, LLMOCK_ERROR_RATE_429: '0', LLMOCK_ERROR_RATE_500: '0' },
    },
  );
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => {
    stderr = (stderr + c.toString('utf8')).slice(-4000);
  });
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`llmock exited (${child.exitCode}): ${stderr}`);
    const up = await fetch(`${origin}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error(`llmock did not answer on ${origin} within 30 s: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    baseUrl: `${origin}/v1`,
    async queue(...behaviors) {
      const res = await fetch(`${origin}/_llmock/scenario`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ behaviors }),
      });
      if (res.status !== 201) throw new Error(`llmock refused the scenario: ${res.status} ${await res.text()}`);
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
