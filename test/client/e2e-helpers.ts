/**
 * The client against the REAL service: the app plus an in-process Temporal worker (`startRunStack`),
 * and a workspace of the test's own with a key that the client uses.
 */
import type { Scope } from '../../domain/identity/scopes';
import type { Plan } from '../../db/entities';
import { Svc, type SvcOptions } from '../../client/src/index.js';
import { createKey, setPlan, signUp, type Account } from '../helpers/factories';
import type { Harness } from '../helpers/harness';

/** Every scope a client method needs. */
export const CLIENT_SCOPES: Scope[] = [
  'runs:read',
  'runs:write',
  'agents:read',
  'agents:write',
  'files:read',
  'files:write',
  'feedback:write',
  'webhooks:manage',
  'usage:read',
  'keys:manage',
  'runner:run',
];

export interface ClientWorkspace {
  account: Account;
  key: string;
  svc: Svc;
}

/**
 * Signs up a new workspace, puts it on `plan` (default `scale`: 1200 requests a minute keep the rate
 * limit out of the way of SSE and polling), mints a key with `scopes` and returns a client for it.
 */
export async function clientWorkspace(
  h: Harness,
  opts: { plan?: Plan; scopes?: Scope[]; client?: Omit<SvcOptions, 'apiKey' | 'baseUrl'> } = {},
): Promise<ClientWorkspace> {
  const account = await signUp(h);
  const plan = opts.plan ?? 'scale';
  if (plan !== 'free_trial') await setPlan(h, account.workspaceId, plan);
  const key = await createKey(h, account, opts.scopes ?? CLIENT_SCOPES, 'client e2e');
  return { account, key, svc: new Svc({ apiKey: key, baseUrl: h.url, ...opts.client }) };
}

/** The rejection of `promise` (fails the test if it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<any> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (err: unknown) => err,
  );
}

/** Today's UTC day, `YYYY-MM-DD`. */
export const today = () => new Date().toISOString().slice(0, 10);
