import type { EntityManager } from '@mikro-orm/postgresql';

export interface RateLimitCount {
  /** This request's number in the current window, itself included. */
  count: number;
  /** Seconds until the current window ends. */
  reset: number;
}

/**
 * Fixed one-minute windows counted in PostgreSQL, so every API replica shares one counter per key
 * and no process keeps state. The window comes from the database clock so replicas
 * with skewed clocks still agree.
 */
export class RateLimitStore {
  private hits = 0;

  /** Counts one request against `bucket`. */
  async hit(em: EntityManager, bucket: string): Promise<RateLimitCount> {
    const rows: Array<{ count: number; reset: number }> = await em.getConnection().execute(
      `insert into rate_limit_buckets (bucket, window_start, count) values (?, date_trunc('minute', now()), 1)
       on conflict (bucket, window_start) do update set count = rate_limit_buckets.count + 1
       returning count, ceil(extract(epoch from (window_start + interval '1 minute' - now())))::int as reset`,
      [bucket],
    );
    if (++this.hits % 500 === 0) this.sweep(em);
    return rows[0];
  }

  // Old windows are useless; drop them now and then instead of on every request.
  private sweep(em: EntityManager): void {
    em.getConnection()
      .execute(`delete from rate_limit_buckets where window_start < now() - interval '2 minutes'`)
      .catch(() => undefined);
  }
}
