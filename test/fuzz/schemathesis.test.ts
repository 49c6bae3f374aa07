/**
 * Schema fuzzing (docs/testing.md): Schemathesis runs against the served /v1/openapi.json with an
 * all-scope key on a `scale` workspace, in its coverage, fuzzing and stateful phases with every check.
 * Any server error, any schema-valid request rejected, any schema-violating request accepted and any
 * response that contradicts the document fails the test, with Schemathesis's report printed.
 */
import { execFile, execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { SCOPES } from '../../domain/identity/scopes';
import { loadConfig } from '../../platform/config';
import { startApi, type Harness } from '../helpers/harness';
import { createKey, setPlan, signUp } from '../helpers/factories';

const ROOT = join(__dirname, '..', '..');
// Fixed, so a failure reproduces; change them only together with whatever their findings need.
const SEED = process.env.SVC_FUZZ_SEED ?? '20261123';
// Unset: the examples per operation of schemathesis.toml.
const MAX_EXAMPLES = process.env.SVC_FUZZ_MAX_EXAMPLES;
// Requests in flight at once: the service answers each in tens of milliseconds on idle cores but one worker
// waits out every round trip; four keep it busy while the rate limit (schemathesis.toml) bounds the total.
const WORKERS = process.env.SVC_FUZZ_WORKERS ?? '4';

/** `st` of the pinned Schemathesis: `npm test` exports it; alone, the install script finds or installs it. */
function schemathesis(): string {
  if (process.env.SVC_SCHEMATHESIS) return process.env.SVC_SCHEMATHESIS;
  try {
    return execFileSync('bash', [join(ROOT, 'scripts', 'schemathesis.sh')], { encoding: 'utf8' }).trim();
  } catch (err) {
    throw new Error(
      `scripts/schemathesis.sh could not provide Schemathesis (run it once with network access to PyPI): ${String((err as { stderr?: string }).stderr ?? err)}`,
    );
  }
}

describe('schemathesis against /v1/openapi.json', () => {
  let h: Harness;
  let key: string;

  beforeAll(async () => {
    const base = loadConfig(process.env);
    // No worker polls this task queue: runs the fuzzer creates stay queued instead of loading the machine.
    // A conversation turn therefore gets no reply: it answers 503 after one second instead of a minute.
    h = await startApi({
      temporal: { ...base.temporal, taskQueue: `fuzz-${randomUUID()}` },
      conversations: { ...base.conversations, turnTimeoutMs: 1000 },
    });
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    key = await createKey(h, owner, [...SCOPES], 'schemathesis');
  }, 120_000);
  afterAll(() => h?.close());

  it('finds no failures in the coverage, fuzzing and stateful phases', async () => {
    const st = schemathesis();
    const args = [
      '--config-file',
      join(__dirname, 'schemathesis.toml'),
      '--no-color',
      'run',
      `${h.url}/v1/openapi.json`,
      '--phases',
      'coverage,fuzzing,stateful',
      '--checks',
      'all',
      '--seed',
      SEED,
      '--workers',
      WORKERS,
      '--request-timeout',
      '10',
      '--header',
      `Authorization: Bearer ${key}`,
      ...(MAX_EXAMPLES ? ['--max-examples', MAX_EXAMPLES] : []),
    ];
    const { code, output } = await new Promise<{ code: number; output: string }>((resolve) => {
      const child = execFile(
        st,
        args,
        // 20 minutes: a few on idle cores, several times that on a busy machine; 1000 requests a minute bound it from below (docs/testing.md)
        { cwd: ROOT, maxBuffer: 64 * 1024 * 1024, timeout: 1_200_000 },
        (err, stdout, stderr) =>
          resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` }),
      );
      child.stdin?.end();
    });
    // the closing line: `== 3 warnings in 150.2s ==`, or `== 2 failures, 1 error, ... ==` when anything failed
    const verdict = /^=+ (.+) in [\d.]+s =+$/m.exec(output)?.[1] ?? output.slice(-2000);
    if (code !== 0 || /failure|error/.test(verdict)) console.log(output);
    expect({ code, verdict }).toEqual({ code: 0, verdict: expect.not.stringMatching(/failure|error/) });
    expect(output).toMatch(/Tested: \d+/);
  }, 1_260_000);
});
