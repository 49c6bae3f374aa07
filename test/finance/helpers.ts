import type { Harness } from '../helpers/harness';
import { ok } from '../helpers/responses';

export type Headers = Record<string, string>;

/** Uploads bytes to the file library through the real route and answers the file id. */
export async function upload(h: Harness, headers: Headers, body: string | Buffer, filename = 'export.csv') {
  const res = await h.request('/v1/files', {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/octet-stream', 'x-filename': filename },
    body: typeof body === 'string' ? Buffer.from(body, 'utf8') : body,
  });
  return (await ok(Promise.resolve(res), 201)).id as string;
}

export function call(h: Harness, method: string, path: string, headers: Headers, json?: unknown) {
  return h.request(path, { method, headers, json });
}
