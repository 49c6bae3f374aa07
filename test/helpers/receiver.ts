import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  at: number;
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
}

/**
 * A webhook receiver on 127.0.0.1 that records every request's raw bytes and answers with what
 * `respond` decides for the n-th request (0-based).
 */
export async function startReceiver(
  respond: (n: number, req: http.IncomingMessage, res: http.ServerResponse) => void = (_n, _req, res) => res.end('ok'),
): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const n = received.length;
      received.push({ at: Date.now(), headers: req.headers, raw: Buffer.concat(chunks) });
      respond(n, req, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
