import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Metrics } from './registry';

export interface MetricsServer {
  /** The address it listens on (`http://host:port`), the port chosen by the system when asked for 0. */
  url: string;
  close(): Promise<void>;
}

/**
 * The worker's `GET /metrics` (docs/operations.md#metrics): a bare HTTP server of its own, for a process that
 * serves nothing else. No credential: it binds to `host`, 127.0.0.1 unless the operator says otherwise, so
 * only what runs beside the worker (or a scraper on its network, when bound wider) reaches it.
 */
export async function serveMetrics(metrics: Metrics, host: string, port: number): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    metrics.scrape().then(
      ({ contentType, body }) => res.writeHead(200, { 'content-type': contentType }).end(body),
      () => res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
