import { randomUUID } from 'node:crypto';
import type { Orm } from '../../../db/orm';
import { runAdmin } from '../../../scripts/admin';
import { expectStatus, request } from './http';

export interface BenchWorkspace {
  id: string;
  cookie: string;
}

/**
 * A workspace the way a customer gets one: sign-up through the API, then the operator CLI
 * (`runAdmin`) moves it to the `scale` plan and sets its balance, so credits never run out mid-run.
 */
export async function createWorkspace(apiUrl: string, orm: Orm, creditsUsd = 1_000_000): Promise<BenchWorkspace> {
  const res = await request(`${apiUrl}/v1/console/auth/sign-up`, {
    json: { email: `bench-${randomUUID()}@example.com`, password: `pw-${randomUUID()}` },
  });
  if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${JSON.stringify(res.body)}`);
  const cookie = /svc_session=([^;]*)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  if (!cookie) throw new Error('sign-up set no session cookie');
  const id = res.body.workspace.id as string;
  await runAdmin(orm, ['workspace:plan', id, 'scale']);
  await runAdmin(orm, ['credits:set', id, String(creditsUsd)]);
  return { id, cookie: `svc_session=${cookie}` };
}

export const ALL_SCOPES = ['runs:read', 'runs:write', 'agents:read', 'agents:write', 'webhooks:manage', 'usage:read'];

/** One API key made with the operator CLI; returns the `Authorization` header value. */
export async function createKey(orm: Orm, workspaceId: string, scopes = ALL_SCOPES): Promise<string> {
  const key = await runAdmin(orm, ['keys:create', workspaceId, `bench-${randomUUID().slice(0, 8)}`, scopes.join(',')]);
  return `Bearer ${key}`;
}

/** Creates an agent through the API; `body` may name a preset and settings. */
export async function createAgent(
  apiUrl: string,
  authorization: string,
  body: Record<string, unknown> = {},
): Promise<string> {
  const agent = await expectStatus(201, `${apiUrl}/v1/agents`, {
    headers: { authorization },
    json: { name: 'bench agent', ...body },
  });
  return agent.id as string;
}

/**
 * Keys of one workspace, each handed out for at most `budget` requests in total. The `scale` plan
 * allows 1200 requests per key per minute (plan `scale`); retiring a key after 1000 requests keeps
 * every key under that in any window, so the benchmark measures the service rather than its limiter,
 * while every request still pays for the key lookup and the shared rate-limit counter.
 */
export class KeyPool {
  private keys: string[] = [];
  private index = 0;
  private used = 0;
  /** Requests sent after every key was spent (they may see 429s; reported, never hidden). */
  overdrawn = 0;

  constructor(
    private readonly orm: Orm,
    readonly workspaceId: string,
    private readonly budget = 1000,
  ) {}

  /** Makes sure at least `requests` more requests can be served by unspent keys. */
  async ensure(requests: number): Promise<void> {
    const capacity = (this.keys.length - this.index) * this.budget - this.used;
    const missing = Math.ceil(Math.max(0, requests - capacity) / this.budget);
    const fresh = await Promise.all(Array.from({ length: missing }, () => createKey(this.orm, this.workspaceId)));
    this.keys.push(...fresh);
  }

  /** The `Authorization` value for the next request. */
  next(): string {
    if (this.keys.length === 0) throw new Error('KeyPool.ensure() first');
    if (this.used >= this.budget) {
      this.used = 0;
      this.index++;
    }
    if (this.index >= this.keys.length) {
      this.overdrawn++;
      return this.keys[this.keys.length - 1];
    }
    this.used++;
    return this.keys[this.index];
  }

  get size(): number {
    return this.keys.length;
  }
}
