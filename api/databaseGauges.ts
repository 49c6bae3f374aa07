import { performance } from 'node:perf_hooks';
import type { Orm } from '../db/orm';
import { openHolds } from '../domain/billing/openHolds';
import { outboxBacklog } from '../domain/shared/outbox/lag';
import type { Metrics } from '../platform/metrics/registry';

/** `read`'s answer, shared by the calls within `ms` of the one that made it: one query for a scrape's gauges. */
function sharedFor<T>(ms: number, read: () => Promise<T>): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | undefined;
  return () => {
    if (!last || performance.now() - last.at > ms) last = { at: performance.now(), value: read() };
    return last.value;
  };
}

/**
 * The series read from PostgreSQL when scraped: the outbox's backlog (the relay runs in the API's recovery
 * sweep) and the credit holds open. A scrape costs two small indexed reads, each shared by its two gauges.
 */
export function registerDatabaseGauges(metrics: Metrics, orm: Orm): void {
  const backlog = sharedFor(1000, () => outboxBacklog(orm.em.fork()));
  const holds = sharedFor(1000, () => openHolds(orm.em.fork()));
  metrics.gaugeFrom('svc_outbox_pending', 'Outbox rows whose Temporal call is not made yet', async () => {
    return (await backlog()).pending;
  });
  metrics.gaugeFrom(
    'svc_outbox_lag_seconds',
    'Age of the oldest outbox row whose call is not made yet (0: none)',
    async () => (await backlog()).lagSeconds,
  );
  metrics.gaugeFrom('svc_holds_open', 'Runs holding credit now', async () => (await holds()).count);
  metrics.gaugeFrom('svc_holds_open_usd', 'Credit held by runs now, USD', async () => (await holds()).heldMicros / 1e6);
}
