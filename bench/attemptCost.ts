/**
 * What 100 webhook attempts cost the process that sends them, with nothing else around: the floor under
 * case 5's 100-subscriber fan-out, which the worker's one main thread makes 25 at a time. A receiver in
 * a child process (as bench case 5's: reads the body, parses it, answers `ok`) on 127.0.0.1; this process
 * sends 100 POSTs of a run's announcement, 25 in flight, over keep-alive connections, in two ways:
 *   raw   `http.request` with a keep-alive agent and nothing else (the least any Node sender does);
 *   svc   `signedPost` with the worker's `CheckedConnections`, as a fan-out's first attempt sends it (the
 *         URL resolved and checked, signed, pinned to the checked address, the answer read up to 4 KiB).
 * Each fan-out of 100 is timed (first send → last answer) and the process's CPU (user + system) counted.
 * Rounds alternate between the two, warm-up rounds first. Not part of the suite; run it with
 *   npx tsx bench/attemptCost.ts
 * Environment (defaults): ATTEMPT_ROUNDS=8 fan-outs measured per way, ATTEMPT_WARMUP=20 per way first.
 */
import { fork } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { signedPost } from '../domain/webhooks/signedPost';
import { CheckedConnections } from '../platform/net/safeHttp';

const num = (name: string, def: number) => (process.env[name] ? Number(process.env[name]) : def);
const ROUNDS = num('ATTEMPT_ROUNDS', 8);
const WARMUP = num('ATTEMPT_WARMUP', 20);
const SUBSCRIBERS = 100;
const IN_FLIGHT = 25;

const BODY = JSON.stringify({
  type: 'run.succeeded',
  run: { id: '00000000-0000-4000-8000-000000000000', status: 'succeeded', output: { text: 'fan-out' } },
});

/** The child: the receiver of bench/cases/webhooks.ts, reporting its port. */
function receiver(): void {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      JSON.parse(Buffer.concat(chunks).toString('utf8'));
      res.end('ok');
    });
  });
  server.listen(0, '127.0.0.1', () => process.send!((server.address() as AddressInfo).port));
}

/** Sends SUBSCRIBERS requests, IN_FLIGHT at a time, each slot taking the next when its answer is in. */
async function fanOut(send: (n: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < SUBSCRIBERS) await send(next++);
    }),
  );
}

function rawSender(port: number) {
  const agent = new http.Agent({ keepAlive: true, scheduling: 'lifo' });
  return (n: number) =>
    new Promise<void>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          path: `/hook/${n}`,
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json' },
        },
        (res) => {
          res.on('data', () => undefined);
          res.on('end', resolve);
        },
      );
      req.on('error', reject);
      req.end(BODY);
    });
}

function svcSender(port: number) {
  const connections = new CheckedConnections();
  return async (n: number) => {
    const result = await signedPost(
      {
        url: `http://127.0.0.1:${port}/hook/${n}`,
        secret: 'bench-secret-0123456789',
        body: BODY,
        deliveryId: `delivery-${n}`,
        attempt: 1,
        userAgent: 'svc-webhooks/1',
      },
      { allowPrivate: true, connections },
    );
    if (result.error) throw new Error(result.error);
  };
}

async function main(): Promise<void> {
  const child = fork(__filename, ['--receiver'], { execArgv: process.execArgv });
  const port = await new Promise<number>((resolve) => child.once('message', (p) => resolve(p as number)));
  const ways = { raw: rawSender(port), svc: svcSender(port) };
  const measured: Record<string, { wallMs: number[]; cpuUs: number }> = {
    raw: { wallMs: [], cpuUs: 0 },
    svc: { wallMs: [], cpuUs: 0 },
  };
  for (let i = 0; i < WARMUP; i++) for (const send of Object.values(ways)) await fanOut(send);
  for (let i = 0; i < ROUNDS; i++) {
    for (const [name, send] of Object.entries(ways)) {
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      await fanOut(send);
      measured[name].wallMs.push(performance.now() - t0);
      const cpu = process.cpuUsage(cpu0);
      measured[name].cpuUs += cpu.user + cpu.system;
    }
  }
  child.kill();
  for (const [name, m] of Object.entries(measured)) {
    const wall = [...m.wallMs].sort((a, b) => a - b);
    console.log(
      `${name}: ${SUBSCRIBERS} attempts, ${IN_FLIGHT} in flight: wall p50 ${wall[Math.floor(wall.length / 2)].toFixed(1)} ms ` +
        `(min ${wall[0].toFixed(1)}, max ${wall[wall.length - 1].toFixed(1)}), ` +
        `CPU ${(m.cpuUs / ROUNDS / 1000).toFixed(1)} ms a fan-out, ${Math.round(m.cpuUs / ROUNDS / SUBSCRIBERS)} µs an attempt`,
    );
  }
}

if (process.argv.includes('--receiver')) receiver();
else
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
