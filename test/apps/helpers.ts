import { randomUUID } from 'node:crypto';
import type { Harness } from '../helpers/harness';
import { ok } from '../helpers/responses';

export type Headers = Record<string, string>;

export const uniqueSlug = (tag = 'app') => `${tag}-${randomUUID().slice(0, 8)}`;

export const call = (h: Harness, method: string, path: string, headers: Headers = {}, json?: unknown) =>
  h.request(path, { method, headers, json });

/** An echo agent of the caller's workspace (builtin/echo answers `{ echo: <input> }`). */
export async function newAgent(h: Harness, headers: Headers, name = 'App agent'): Promise<string> {
  return (await ok(call(h, 'POST', '/v1/agents', headers, { name }), 201)).id;
}

export const simpleForm = {
  fields: [
    { name: 'topic', label: 'Topic', type: 'text', required: true },
    { name: 'tone', label: 'Tone', type: 'select', required: false, options: ['plain', 'fun'] },
  ],
};

/** A draft app over `agentId`. */
export async function newApp(h: Harness, headers: Headers, agentId: string, extra: Record<string, unknown> = {}) {
  return ok(
    call(h, 'POST', '/v1/apps', headers, {
      name: 'Topic explainer',
      slug: uniqueSlug(),
      description: 'Explains a topic',
      agentId,
      form: simpleForm,
      ...extra,
    }),
    201,
  );
}
