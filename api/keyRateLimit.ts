import type { EntityManager } from '@mikro-orm/postgresql';
import type { RateLimitCount } from './rateLimitStore';

/** Most requests one lease reserves; fewer as the window's allowance runs out (`leaseSize`). */
const MAX_LEASE = 64;
/** What a lease reserves for a key this replica has not been busy with lately. */
const BASE_LEASE = 8;
/** A replica sizes a key's next lease by what it spent of it in the last one to two of these. */
const RATE_SPAN_MS = 125;
/** Unspent tokens this long untouched go back to the shared counter, for the other replicas. */
const IDLE_RETURN_MS = 1000;
/** How long a replica answers 429 from memory after the shared counter said no, before it asks again. */
const EXHAUSTED_RECHECK_MS = 1000;

interface Lease {
  /** The window the tokens belong to (the database's `date_trunc('minute', now())`). */
  windowStart: Date;
  /** When the window ends by this process's clock, estimated early (see `lease`); tokens die then. */
  endsAt: number;
  /** Tokens reserved in the shared counter and not yet spent here. */
  tokens: number;
  /** What the shared counter had handed out, to everyone, after this process's last lease. */
  counted: number;
  lastTakeAt: number;
  /** Set when the shared counter refused a lease: answer 429 from memory until then, at this limit. */
  exhausted?: { until: number; limit: number };
  /** Tokens spent here since `spanStart`, and in the span of RATE_SPAN_MS before it. */
  spent: number;
  spentBefore: number;
  spanStart: number;
}

/**
 * The per-key per-minute limit (docs/api/limits.md) without a write per request. The count stays in
 * PostgreSQL's `rate_limit_buckets`, shared by every replica, but a replica reserves a few requests at a
 * time (a lease: one upsert adds k to the window's count, granting what fits under the limit) and spends
 * them from memory, leasing again when out. The count is never raised past the limit by a grant, so no
 * window admits more than the limit across all replicas. A lease is as large as what this replica spent
 * of the key in the last 125-250 ms (at least 8: a busy key leases in large steps, an upsert per up to 64
 * requests), but never more than a quarter of what is left in the window (`leaseSize`), so one replica
 * cannot hoard it; tokens left idle go back to the counter; a new window starts with no lease.
 */
export class KeyRateLimiter {
  private readonly leases = new Map<string, Lease>();
  private readonly inflight = new Map<string, Promise<void>>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly em: EntityManager) {
    this.sweeper = setInterval(() => void this.sweep(), IDLE_RETURN_MS / 2);
    this.sweeper.unref();
  }

  /** Spends one request of `keyId` under `limit`; the result's count is past the limit when refused. */
  async take(keyId: string, limit: number): Promise<RateLimitCount> {
    const bucket = `key:${keyId}`;
    for (;;) {
      const now = Date.now();
      let lease = this.leases.get(bucket);
      if (lease && now >= lease.endsAt) {
        this.leases.delete(bucket);
        lease = undefined;
      }
      if (lease && lease.tokens > 0) {
        lease.tokens--;
        lease.lastTakeAt = now;
        countSpent(lease, now);
        return { count: lease.counted - lease.tokens, reset: seconds(lease.endsAt - now) };
      }
      if (lease?.exhausted && now < lease.exhausted.until && lease.exhausted.limit === limit) {
        return { count: limit + 1, reset: seconds(lease.endsAt - now) };
      }
      // one lease in flight per key: concurrent requests wait for it and share what it brings
      let pending = this.inflight.get(bucket);
      if (!pending) {
        pending = this.lease(bucket, limit, lease).finally(() => this.inflight.delete(bucket));
        this.inflight.set(bucket, pending);
      }
      await pending;
    }
  }

  /**
   * One upsert: adds k to the window's count unless it has reached the limit already, and reports the
   * window. The grant is what of k fits under the limit (the count before was `count - k`). The window's
   * end is taken as the time the statement was sent plus what the database says is left, never later
   * than the database's own end, so a token is never spent in a window it was not counted in.
   */
  private async lease(bucket: string, limit: number, previous: Lease | undefined): Promise<void> {
    const k = leaseSize(limit - (previous?.counted ?? 0), previous ? recentlySpent(previous, Date.now()) : 0);
    const sentAt = Date.now();
    const rows: Array<{ count: number | null; window_start: Date; ms_left: number }> = await this.em
      .getConnection()
      .execute(
        `with b as (
           insert into rate_limit_buckets (bucket, window_start, count) values (?, date_trunc('minute', now()), ?)
           on conflict (bucket, window_start) do update set count = rate_limit_buckets.count + excluded.count
           where rate_limit_buckets.count < ?
           returning count
         )
         select (select count from b) as count, date_trunc('minute', now()) as window_start,
                extract(epoch from (date_trunc('minute', now()) + interval '1 minute' - now())) * 1000 as ms_left`,
        [bucket, k, limit],
      );
    const row = rows[0];
    const endsAt = sentAt + Number(row.ms_left);
    const windowStart = new Date(row.window_start);
    const old = previous && previous.windowStart.getTime() === windowStart.getTime() ? previous : undefined;
    const granted = row.count === null ? 0 : Math.max(0, Math.min(k, limit - (row.count - k)));
    const lease: Lease = {
      windowStart,
      endsAt,
      tokens: (old?.tokens ?? 0) + granted,
      counted: row.count === null ? limit : row.count - k + granted,
      lastTakeAt: Date.now(),
      spent: old?.spent ?? 0,
      spentBefore: old?.spentBefore ?? 0,
      spanStart: old?.spanStart ?? Date.now(),
    };
    // the last lease of a window may add more than fits: take the excess back, so that tokens returned
    // later free exactly what they should
    if (row.count !== null && granted < k) void this.giveBack(bucket, windowStart, k - granted);
    if (granted === 0) lease.exhausted = { until: Math.min(endsAt, Date.now() + EXHAUSTED_RECHECK_MS), limit };
    this.leases.set(bucket, lease);
  }

  // Gives idle tokens back for the other replicas, and forgets leases whose window is over.
  private async sweep(): Promise<void> {
    const now = Date.now();
    for (const [bucket, lease] of this.leases) {
      if (now >= lease.endsAt) {
        this.leases.delete(bucket);
      } else if (lease.tokens > 0 && now - lease.lastTakeAt > IDLE_RETURN_MS && !this.inflight.has(bucket)) {
        const n = lease.tokens;
        // out of this process's hands before the counter gives them to anyone else
        lease.tokens = 0;
        lease.counted -= n;
        await this.giveBack(bucket, lease.windowStart, n);
      }
    }
  }

  private giveBack(bucket: string, windowStart: Date, n: number): Promise<void> {
    return this.em
      .getConnection()
      .execute(`update rate_limit_buckets set count = count - ? where bucket = ? and window_start = ? and count >= ?`, [
        n,
        bucket,
        windowStart,
        n,
      ])
      .then(
        () => undefined,
        () => undefined,
      );
  }

  close(): void {
    clearInterval(this.sweeper);
  }
}

/**
 * How many requests to reserve when about `remaining` are left in the window and this replica spent
 * `recent` of the key lately: the recent demand (at least 8, at most 64), never more than a quarter of
 * what is left, and at least 1.
 */
export function leaseSize(remaining: number, recent = 0): number {
  const demand = Math.min(MAX_LEASE, Math.max(BASE_LEASE, recent));
  return Math.max(1, Math.min(demand, Math.floor(remaining / 4)));
}

/** Counts a token spent at `now` in the lease's current span, rolling the spans over as time passes. */
function countSpent(lease: Lease, now: number): void {
  if (now - lease.spanStart >= RATE_SPAN_MS) rollSpans(lease, now);
  lease.spent++;
}

/** Tokens spent in the current span and the one before it (up to 2 × RATE_SPAN_MS). */
function recentlySpent(lease: Lease, now: number): number {
  if (now - lease.spanStart >= RATE_SPAN_MS) rollSpans(lease, now);
  return lease.spent + lease.spentBefore;
}

function rollSpans(lease: Lease, now: number): void {
  // a span or more of silence in between: what came before it is no longer recent
  lease.spentBefore = now - lease.spanStart < 2 * RATE_SPAN_MS ? lease.spent : 0;
  lease.spent = 0;
  lease.spanStart = now;
}

function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}
