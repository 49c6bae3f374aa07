/**
 * `@svc/client` retrying writes against the REAL service: a proxy on 127.0.0.1 passes each request to the
 * service but loses the first answer (a 500 or a dropped connection in its place), as a load balancer
 * might. The client retries with the same Idempotency-Key, gets the first answer, and the service has
 * acted once.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Svc } from '../../client/src/index.js';
import type { Harness } from '../helpers/harness';
import { startRunStack } from '../helpers/worker';
import { clientWorkspace } from './e2e-helpers';

let h: Harness;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ h, stop } = await startRunStack({ allowPrivateWebhooks: true }));
}, 120_000);
afterAll(() => stop?.());

/** A proxy to the service that forwards everything and replaces the answers to the first `lose` requests. */
async function lossyProxy(target: string, lose: number, how: 'status500' | 'drop') {
  let seen = 0;
  const keys: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const n = seen++;
      keys.push(String(req.headers['idempotency-key'] ?? ''));
      const upstream = http.request(
        `${target}${req.url}`,
        { method: req.method, headers: { ...req.headers, host: new URL(target).host } },
        (answer) => {
          const body: Buffer[] = [];
          answer.on('data', (c: Buffer) => body.push(c));
          answer.on('end', () => {
            if (n < lose) {
              // the service acted; its answer is lost on the way back
              if (how === 'drop') return void res.socket?.destroy();
              res.writeHead(500, { 'content-type': 'application/json' });
              return void res.end('{"error":{"code":"internal_error","message":"lost","requestId":"proxy"}}');
            }
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(Buffer.concat(body));
          });
        },
      );
      upstream.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    keys,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

it.each(['status500', 'drop'] as const)(
  'a write whose answer is lost (%s) is retried with its key and acts once',
  async (how) => {
    const { svc: direct, key } = await clientWorkspace(h);
    const proxy = await lossyProxy(h.url, 1, how);
    try {
      const svc = new Svc({ apiKey: key, baseUrl: proxy.url });
      const hook = await svc.webhooks.create({
        url: 'http://127.0.0.1:9/hook',
        events: ['run.failed'],
        secret: 's'.repeat(16),
      });
      expect(proxy.keys).toHaveLength(2);
      expect(proxy.keys[1]).toBe(proxy.keys[0]);
      // one subscription, the one the client got back
      expect((await direct.webhooks.list()).map((w) => w.id)).toEqual([hook.id]);

      const agent = await svc.agents.create({ name: 'Echo', presetId: 'general-assistant' });
      expect((await direct.agents.list().toArray()).map((a) => a.id)).toEqual([agent.id]);
    } finally {
      await proxy.close();
    }
  },
);
