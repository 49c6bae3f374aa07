/**
 * A real HTTP server on 127.0.0.1 for client tests: records every request and answers with the test's handler.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Hit {
  method: string;
  url: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export type Handler = (req: Hit, res: ServerResponse, hitIndex: number) => void | Promise<void>;

export interface FakeServer {
  url: string;
  hits: Hit[];
  close(): Promise<void>;
}

/** Starts a server on an ephemeral 127.0.0.1 port. */
export async function startServer(handler: Handler): Promise<FakeServer> {
  const hits: Hit[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const parsed = new URL(req.url ?? '/', 'http://127.0.0.1');
      const hit: Hit = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        path: parsed.pathname,
        query: parsed.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      hits.push(hit);
      Promise.resolve(handler(hit, res, hits.length - 1)).catch((err: unknown) => {
        res.statusCode = 599;
        res.end(String(err));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Writes a JSON response. */
export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(text);
}

/** Writes the service's error envelope. */
export function apiError(
  res: ServerResponse,
  status: number,
  code: string,
  extra: { message?: string; details?: unknown; requestId?: string; headers?: Record<string, string> } = {},
): void {
  json(
    res,
    status,
    { error: { code, message: extra.message ?? code, details: extra.details, requestId: extra.requestId ?? 'req-1' } },
    extra.headers,
  );
}

/** A 127.0.0.1 port that nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The global `fetch`, counting its calls: requests that never reached a server still count. */
export function countingFetch(): { fetch: typeof fetch; calls(): number } {
  let calls = 0;
  return {
    fetch: (input, init) => {
      calls++;
      return fetch(input, init);
    },
    calls: () => calls,
  };
}

/** A run object in the given status. */
export function runFixture(id: string, status: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    agentId: 'agent-1',
    agentVersion: 1,
    status,
    input: {},
    output: status === 'succeeded' ? { ok: true } : null,
    error: null,
    pendingAction: null,
    usage: { inputTokens: 1, outputTokens: 1, costUsd: 0.001 },
    metadata: {},
    createdAt: '2024-01-01T00:00:00.000Z',
    updatedAt: '2024-01-01T00:00:00.000Z',
    startedAt: null,
    completedAt: null,
    ...extra,
  };
}
