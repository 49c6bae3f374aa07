import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake chat-completions server received. */
export interface Hit {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: any;
  /** Resolves when the client closed the connection before a response was sent. */
  closed: Promise<void>;
}

export type Responder = (hit: Hit, res: ServerResponse, n: number) => void;

/** A real HTTP server on 127.0.0.1 that answers with the responder; `n` counts hits from 0. */
export async function startChatServer(respond: Responder) {
  const hits: Hit[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const closed = new Promise<void>((resolve) => res.on('close', () => resolve()));
      const hit: Hit = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: text ? JSON.parse(text) : undefined,
        closed,
      };
      hits.push(hit);
      respond(hit, res, hits.length - 1);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Sends a JSON response. */
export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** A chat-completions body with one choice. */
export function completion(message: Record<string, unknown>, usage?: object, finishReason = 'stop') {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finishReason }],
    ...(usage ? { usage } : {}),
  };
}
