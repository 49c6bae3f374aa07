import { randomUUID } from 'node:crypto';
import { Membership, User, Workspace, type Plan, type Role } from '../../db/entities';
import type { Scope } from '../../domain/identity/scopes';
import type { Harness } from './harness';

export interface Account {
  email: string;
  password: string;
  cookie: string;
  userId: string;
  workspaceId: string;
}

export const uniqueEmail = (tag = 'user') => `${tag}-${randomUUID()}@example.com`;

/** Signs up through the real route and returns the session cookie (`svc_session=…`). */
export async function signUp(
  h: Harness,
  opts: { email?: string; password?: string; name?: string } = {},
): Promise<Account> {
  const email = opts.email ?? uniqueEmail();
  const password = opts.password ?? `pw-${randomUUID()}`;
  const res = await h.request('/v1/console/auth/sign-up', {
    method: 'POST',
    json: { email, password, name: opts.name },
  });
  if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { user: { id: string }; workspace: { id: string } };
  return { email, password, cookie: sessionCookie(res), userId: body.user.id, workspaceId: body.workspace.id };
}

export function sessionCookie(res: Response): string {
  const header = res.headers.get('set-cookie') ?? '';
  const match = /svc_session=([^;]*)/.exec(header);
  if (!match) throw new Error(`no session cookie in ${header}`);
  return `svc_session=${match[1]}`;
}

/** Creates an API key through the real route, as the account's owner session. */
export async function createKey(h: Harness, account: Account, scopes: Scope[], name = 'test key'): Promise<string> {
  const res = await h.request('/v1/api-keys', {
    method: 'POST',
    headers: { cookie: account.cookie },
    json: { name, scopes },
  });
  if (res.status !== 201) throw new Error(`key creation failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { key: string }).key;
}

/** Adds an existing user to a workspace with a role (no route for invitations yet). */
export async function addMember(h: Harness, userId: string, workspaceId: string, role: Role): Promise<void> {
  const em = h.orm.em.fork();
  await em
    .persist(new Membership(em.getReference(User, userId), em.getReference(Workspace, workspaceId), role))
    .flush();
}

export async function setPlan(h: Harness, workspaceId: string, plan: Plan): Promise<void> {
  await h.orm.em.fork().nativeUpdate(Workspace, { id: workspaceId }, { plan });
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/**
 * Rate limits count in one-minute windows; a test that must see N requests land in one window waits
 * out the last seconds of a minute first, so it cannot straddle a window edge.
 */
export async function freshRateWindow(needSeconds = 10): Promise<void> {
  const left = 60 - new Date().getUTCSeconds();
  if (left < needSeconds) await new Promise((r) => setTimeout(r, left * 1000 + 200));
}
