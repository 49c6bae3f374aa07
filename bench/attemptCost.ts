/**
 * What 100 webhook attempts cost the process that sends them, with nothing else around: the floor under
 * case 5's 100-subscriber fan-out, which the worker's one main thread makes all at once (the bench gives
 * its workspace 100 delivery slots). A receiver in a child process (as bench case 5's: reads the body,
 * parses it, answers `ok`) on 127.0.0.1; this process sends 100 POSTs of a run's announcement,
 * ATTEMPT_IN_FLIGHT at a time, over keep-alive connections, in four ways:
 *   raw    `http.request` with a keep-alive agent and nothing else (the least any Node sender does);
 *   svc    `signedPost` with the worker's `CheckedConnections`, as a fan-out's first attempt sends it (the
 *          URL resolved and checked, signed, pinned to the checked address, the answer read up to 4 KiB);
 *   raw÷2r raw, half of the 100 to a second receiver process: shorter only if one receiver's thread bounds it;
 *   svc÷2t svc, half of the 100 sent from a worker thread: shorter only if the sender's one thread bounds it;
 *   sock   the floor of any sender: the request svc sends (its headers, signed) written whole to one of 100
 *          open sockets, its answer read until its Content-Length is in; no agent, no guard, no timer.
 * Each fan-out of 100 is timed (first send → last answer) and this process's CPU (user + system, its
 * threads together) counted, and the first receiver's (/proc), which every way but raw÷2r sends all to. Rounds alternate between the ways, warm-up rounds first. Not part of the
 * suite; run it with
 *   npx tsx bench/attemptCost.ts
 * Environment (defaults): ATTEMPT_ROUNDS=8 fan-outs measured per way, ATTEMPT_WARMUP=20 per way first,
 * ATTEMPT_IN_FLIGHT=100.
 */
import { fork } from 'node:child_process';
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { Worker, isMainThread, parentPort } from 'node:worker_threads';
import type { AddressInfo } from 'node:net';
import { signedPost } from '../domain/deliveries/signedPost';
import { CheckedConnections } from '../platform/net/safeHttp';
import { createSecretBox, parseKeyRing } from '../platform/secrets';
import { statTimes } from './lib/cpu';

const num = (name: string, def: number) => (process.env[name] ? Number(process.env[name]) : def);
const ROUNDS = num('ATTEMPT_ROUNDS', 8);
const WARMUP = num('ATTEMPT_WARMUP', 20);
const SUBSCRIBERS = 100;
const IN_FLIGHT = num('ATTEMPT_IN_FLIGHT', 100);

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

/**
 * Sends requests `from` … `to` - 1 (default all SUBSCRIBERS), `inFlight` at a time, each slot taking the
 * next when its answer is in.
 */
async function fanOut(send: (n: number) => Promise<void>, from = 0, to = SUBSCRIBERS, inFlight = IN_FLIGHT) {
  let next = from;
  await Promise.all(
    Array.from({ length: Math.min(inFlight, to - from) }, async () => {
      while (next < to) await send(next++);
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
  // A sealed secret, as every subscription stores it: each attempt opens it (platform/secrets.ts).
  const box = createSecretBox(parseKeyRing(randomBytes(32).toString('base64')));
  const secretSlot = { table: 'webhook_subscriptions', id: 'bench', column: 'secret' };
  const secret = box.seal('bench-secret-0123456789', secretSlot);
  return async (n: number) => {
    const result = await signedPost(
      {
        url: `http://127.0.0.1:${port}/hook/${n}`,
        secret,
        secretSlot,
        body: BODY,
        deliveryId: `delivery-${n}`,
        attempt: 1,
        userAgent: 'svc-webhooks/1',
      },
      { allowPrivate: true, connections, box },
    );
    if (result.error) throw new Error(result.error);
  };
}

/** The sock way: `SUBSCRIBERS` open sockets, request n written whole to socket n. */
async function socketSender(port: number) {
  const sockets = await Promise.all(
    Array.from(
      { length: SUBSCRIBERS },
      () =>
        new Promise<net.Socket>((resolve, reject) => {
          const socket = net.connect(port, '127.0.0.1', () => resolve(socket.setNoDelay(true)));
          socket.once('error', reject);
        }),
    ),
  );
  const length = Buffer.byteLength(BODY);
  const send = (n: number) =>
    new Promise<void>((resolve) => {
      const socket = sockets[n];
      const t = Math.floor(Date.now() / 1000);
      const v1 = createHmac('sha256', 'bench-secret-0123456789').update(`${t}.${BODY}`).digest('hex');
      let answer = '';
      const onData = (chunk: Buffer) => {
        answer += chunk.toString('latin1');
        const end = answer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const size = Number(/content-length: *(\d+)/i.exec(answer.slice(0, end))?.[1] ?? 0);
        if (answer.length < end + 4 + size) return;
        socket.off('data', onData);
        resolve();
      };
      socket.on('data', onData);
      socket.write(
        `POST /hook/${n} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
          `User-Agent: svc-webhooks/1\r\nX-SVC-Signature: t=${t},v1=${v1}\r\nX-SVC-Delivery: ${randomUUID()}\r\n` +
          `X-SVC-Attempt: 1\r\nContent-Length: ${length}\r\nConnection: keep-alive\r\n\r\n${BODY}`,
      );
    });
  return { send, close: () => sockets.forEach((s) => s.destroy()) };
}

/** A process's CPU time so far (user + system, µs), from /proc. */
function processCpuUs(pid: number): number {
  const { user, system } = statTimes(`/proc/${pid}/stat`);
  return user + system;
}

/**
 * The split ways send requests 0 … HALF - 1 one way and HALF … SUBSCRIBERS - 1 the other, each half with
 * half of IN_FLIGHT.
 */
const HALF = SUBSCRIBERS / 2;
const firstHalf = (send: (n: number) => Promise<void>) => fanOut(send, 0, HALF, IN_FLIGHT / 2);
const secondHalf = (send: (n: number) => Promise<void>) => fanOut(send, HALF, SUBSCRIBERS, IN_FLIGHT / 2);

/** The worker thread of the svc÷2t way: sends the second half the svc way per message. */
function senderThread(): void {
  let send: ((n: number) => Promise<void>) | undefined;
  parentPort!.on('message', async (port: number) => {
    send ??= svcSender(port);
    await secondHalf(send);
    parentPort!.postMessage('done');
  });
}

async function receiverProcess(): Promise<{ port: number; pid: number; kill: () => void }> {
  const child = fork(__filename, ['--receiver'], { execArgv: process.execArgv });
  const port = await new Promise<number>((resolve) => child.once('message', (p) => resolve(p as number)));
  return { port, pid: child.pid!, kill: () => child.kill() };
}

async function main(): Promise<void> {
  const [first, second] = [await receiverProcess(), await receiverProcess()];
  const port = first.port;
  // tsx's loader does not reach worker threads started from a file, so the thread registers it itself
  const thread = new Worker(`require('tsx/cjs'); require(${JSON.stringify(__filename)});`, { eval: true });
  const inThread = () =>
    new Promise<void>((resolve) => {
      thread.once('message', () => resolve());
      thread.postMessage(port);
    });
  const raw = rawSender(port);
  const rawSecond = rawSender(second.port);
  const svc = svcSender(port);
  const sock = await socketSender(port);
  const ways: Record<string, () => Promise<unknown>> = {
    raw: () => fanOut(raw),
    svc: () => fanOut(svc),
    'raw÷2r': () => Promise.all([firstHalf(raw), secondHalf(rawSecond)]),
    'svc÷2t': () => Promise.all([firstHalf(svc), inThread()]),
    sock: () => fanOut(sock.send),
  };
  const measured: Record<string, { wallMs: number[]; cpuUs: number; receiverUs: number }> = {};
  for (const name of Object.keys(ways)) measured[name] = { wallMs: [], cpuUs: 0, receiverUs: 0 };
  for (let i = 0; i < WARMUP; i++) for (const run of Object.values(ways)) await run();
  for (let i = 0; i < ROUNDS; i++) {
    for (const [name, run] of Object.entries(ways)) {
      const cpu0 = process.cpuUsage();
      const receiver0 = processCpuUs(first.pid);
      const t0 = performance.now();
      await run();
      measured[name].wallMs.push(performance.now() - t0);
      const cpu = process.cpuUsage(cpu0);
      measured[name].cpuUs += cpu.user + cpu.system;
      measured[name].receiverUs += processCpuUs(first.pid) - receiver0;
    }
  }
  sock.close();
  first.kill();
  second.kill();
  await thread.terminate();
  for (const [name, m] of Object.entries(measured)) {
    const wall = [...m.wallMs].sort((a, b) => a - b);
    console.log(
      `${name}: ${SUBSCRIBERS} attempts, ${IN_FLIGHT} in flight: wall p50 ${wall[Math.floor(wall.length / 2)].toFixed(1)} ms ` +
        `(min ${wall[0].toFixed(1)}, max ${wall[wall.length - 1].toFixed(1)}), ` +
        `CPU ${(m.cpuUs / ROUNDS / 1000).toFixed(1)} ms a fan-out, ${Math.round(m.cpuUs / ROUNDS / SUBSCRIBERS)} µs an attempt; ` +
        `the first receiver ${Math.round(m.receiverUs / ROUNDS / SUBSCRIBERS)} µs an attempt (in ticks of 10 ms: a rough sum)`,
    );
  }
}

if (!isMainThread) senderThread();
else if (process.argv.includes('--receiver')) receiver();
else
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
