import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import type { S3Settings } from '../../platform/storage/storage';

const ROOT = join(__dirname, '..', '..');

/** A running moto S3 server on 127.0.0.1 with one bucket made for the caller. */
export interface MotoServer {
  endpoint: string;
  bucket: string;
  /** Settings for `createStorage`/`config.s3` that reach this server. */
  settings: S3Settings;
  stop(): Promise<void>;
}

/** `moto_server` of the pinned moto: `npm test` exports it; alone, the install script finds or installs it. */
function motoServerPath(): string {
  if (process.env.SVC_MOTO_SERVER) return process.env.SVC_MOTO_SERVER;
  try {
    return execFileSync('bash', [join(ROOT, 'scripts', 'moto.sh')], { encoding: 'utf8' }).trim();
  } catch (err) {
    throw new Error(
      `scripts/moto.sh could not provide moto (run it once with network access to PyPI): ${String((err as { stderr?: string }).stderr ?? err)}`,
    );
  }
}

/** A port of 127.0.0.1 that nothing listens on just now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Starts `moto_server` (a real S3-compatible server from PyPI, scripts/moto.sh) on a free port of 127.0.0.1,
 * waits until it answers and makes a bucket in it. moto keeps everything in memory: stopping it forgets all.
 */
export async function startMoto(bucket = `svc-${randomBytes(4).toString('hex')}`): Promise<MotoServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(motoServerPath(), ['-H', '127.0.0.1', '-p', String(port)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => {
    stderr = (stderr + c.toString('utf8')).slice(-4000);
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`moto_server exited (${child.exitCode}): ${stderr}`);
    const up = await fetch(`${endpoint}/moto-api/`).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error(`moto_server did not answer on ${endpoint} within 30 s: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const settings: S3Settings = {
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'test-access-key', secretAccessKey: 'test-secret-key' },
  };
  const client = new S3Client({ ...settings });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  client.destroy();
  return {
    endpoint,
    bucket,
    settings,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
