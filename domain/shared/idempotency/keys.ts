import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiError, errors } from '../../errors';

/** An Idempotency-Key is honoured for 24 hours after its first request (docs/api/limits.md#idempotency). */
export const IDEMPOTENCY_WINDOW_SECONDS = 24 * 3600;

/**
 * While a first request runs, its API renews the key's claim this often (`renewKey`), however long the
 * request takes (a slow upload).
 */
export const CLAIM_RENEW_MS = 10_000;

/**
 * A claim not renewed for this long belongs to a process that died: a retry takes the key over instead of
 * waiting for it forever. Three renewals missed, so a busy process is not mistaken for a dead one.
 */
const ABANDONED_AFTER_SECONDS = 30;

/** What a retry is told to wait before trying a key whose first request still runs. */
const IN_PROGRESS_RETRY_AFTER_SECONDS = 5;

/** How long a retry waits for the first request with its key to answer before giving up with 409. */
const WAIT_FOR_FIRST_MS = 10_000;
const POLL_MS = 100;

/** Where a key lives: keys are scoped per workspace and per route (`POST /v1/webhooks`). */
export interface KeyScope {
  workspaceId: string;
  route: string;
  key: string;
}

/** What the first request answered, replayed to every repeat of it: its status and JSON text (or null). */
export interface StoredResponse {
  status: number;
  body: string | null;
}

export type Claim = { kind: 'claimed' } | { kind: 'replay'; response: StoredResponse };

interface Row {
  fingerprint: string;
  state: 'running' | 'done';
  response_status: number | null;
  response_body: string | null;
}

/**
 * Claims a key for a request, or finds what the first request with it answered. A fresh key, an expired
 * one (older than 24 h) and one abandoned by a dead process (its claim not renewed) are claimed; a key
 * answered for another request (fingerprint) is 409 `conflict`; a key whose first request still runs is
 * waited for, and is 409 `conflict` (`details.reason: 'in_progress'`, with `Retry-After`) if it does not
 * answer in time, so two requests with one key never both act.
 */
export async function claimKey(em: EntityManager, scope: KeyScope, fingerprint: string): Promise<Claim> {
  const deadline = Date.now() + WAIT_FOR_FIRST_MS;
  for (;;) {
    const claimed = await em.execute<Array<{ claimed: boolean }>>(
      `insert into idempotency_keys (workspace_id, route, key, fingerprint, state, locked_at, expires_at)
       values (?, ?, ?, ?, 'running', now(), now() + make_interval(secs => ?))
       on conflict (workspace_id, route, key) do update
         set fingerprint = excluded.fingerprint, state = 'running', response_status = null, response_body = null,
             locked_at = now(), expires_at = excluded.expires_at
         where idempotency_keys.expires_at <= now()
            or (idempotency_keys.state = 'running' and idempotency_keys.fingerprint = excluded.fingerprint
                and idempotency_keys.locked_at < now() - make_interval(secs => ?))
       returning true as claimed`,
      [scope.workspaceId, scope.route, scope.key, fingerprint, IDEMPOTENCY_WINDOW_SECONDS, ABANDONED_AFTER_SECONDS],
    );
    if (claimed.length > 0) return { kind: 'claimed' };
    const [row] = await em.execute<Row[]>(
      `select fingerprint, state, response_status, response_body from idempotency_keys
       where workspace_id = ? and route = ? and key = ? and expires_at > now()`,
      [scope.workspaceId, scope.route, scope.key],
    );
    if (!row) continue; // expired between the two statements: claim it on the next round
    if (row.fingerprint !== fingerprint) {
      throw errors.conflict('This Idempotency-Key was already used with a different request');
    }
    if (row.state === 'done') {
      return { kind: 'replay', response: { status: row.response_status ?? 200, body: row.response_body } };
    }
    if (Date.now() >= deadline) {
      throw new ApiError(
        'conflict',
        'A request with this Idempotency-Key is still in progress; retry later',
        { reason: 'in_progress' },
        { 'Retry-After': String(IN_PROGRESS_RETRY_AFTER_SECONDS) },
      );
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Renews a running request's claim on its key, so that no retry takes it over while the request lives. */
export async function renewKey(em: EntityManager, scope: KeyScope): Promise<void> {
  await em.execute(
    `update idempotency_keys set locked_at = now()
     where workspace_id = ? and route = ? and key = ? and state = 'running'`,
    [scope.workspaceId, scope.route, scope.key],
  );
}

/** Stores the first request's answer; every repeat within the window gets it. */
export async function completeKey(em: EntityManager, scope: KeyScope, response: StoredResponse): Promise<void> {
  await em.execute(
    `update idempotency_keys set state = 'done', response_status = ?, response_body = ?
     where workspace_id = ? and route = ? and key = ?`,
    [response.status, response.body, scope.workspaceId, scope.route, scope.key],
  );
}

/**
 * Gives a key back when its request acted on nothing (it failed before any effect committed: one
 * transaction per operation), so the caller's retry acts instead of replaying a failure.
 */
export async function releaseKey(em: EntityManager, scope: KeyScope): Promise<void> {
  await em.execute(
    `delete from idempotency_keys where workspace_id = ? and route = ? and key = ? and state = 'running'`,
    [scope.workspaceId, scope.route, scope.key],
  );
}

/** Deletes keys past their window, a batch at a time (the recovery sweep calls it). */
export async function deleteExpiredKeys(em: EntityManager, batch = 1000): Promise<number> {
  const rows = await em.execute<Array<{ n: string }>>(
    `with gone as (
       delete from idempotency_keys where ctid in (
         select ctid from idempotency_keys where expires_at <= now() limit ?)
       returning 1)
     select count(*) as n from gone`,
    [batch],
  );
  return Number(rows[0]?.n ?? 0);
}
