import { errors } from '../../errors';
import { DoneMarks, MARK_DONE } from './doneMarks';
import { outboxCalls, type RelayDeps } from './calls';
import { executePrepared } from '../../../db/preparedStatement';
import type { EntityManager } from '@mikro-orm/postgresql';
import { OutboxEntry, type OutboxCall } from '../../../db/entities/OutboxEntry';
import type { Orm } from '../../../db/orm';

/**
 * The transactional outbox (docs/architecture.md). A change that owes Temporal a call (start a run's
 * workflow, signal or cancel it, announce a status to webhook subscribers) commits an outbox row in
 * its own transaction; the request then makes the call itself at once (relayNow), and the sweep
 * (sweepOutbox) makes those a request could not. Every call is idempotent: a workflow id admits one
 * start, the workflow ignores a signal whose action id is not its pending one, a cancel or a signal
 * to a closed workflow changes nothing. So a crash anywhere between the commit and the mark "done"
 * neither loses the call nor doubles its effect.
 */

export type { RelayDeps };

/** How long the request that wrote a row keeps the sweep off it while it makes the call itself. */
const LEASE_MS = 30_000;
const BATCH = 100;
/** Done rows are kept a week: a retried answer finds its first row by its key (answerGate). */
const KEEP_DONE_DAYS = 7;

/**
 * Adds a call to the outbox in the caller's transaction. `held`: the caller makes the call itself
 * right after the commit (relayNow), so the sweep leaves the row alone for a while.
 */
export function enqueue(
  em: EntityManager,
  call: OutboxCall,
  opts: { dedupeKey?: string; held?: boolean } = {},
): OutboxEntry {
  const entry = outboxEntry(call, opts);
  em.persist(entry);
  return entry;
}

/**
 * A row as {@link enqueue} adds it, not yet persisted: for a statement that inserts it itself with the
 * change that owes the call (its columns and values: {@link OUTBOX_COLUMNS}, {@link outboxValues}).
 */
export function outboxEntry(call: OutboxCall, opts: { dedupeKey?: string; held?: boolean } = {}): OutboxEntry {
  const entry = new OutboxEntry(call);
  entry.dedupeKey = opts.dedupeKey ?? null;
  if (opts.held) entry.leaseUntil = new Date(Date.now() + LEASE_MS);
  return entry;
}

/** The outbox columns a raw insert of an {@link outboxEntry} fills, in the order of {@link outboxValues}. */
export const OUTBOX_COLUMNS = 'id, created_at, updated_at, kind, call, run_id, dedupe_key, lease_until, attempts';

/** The values of an {@link outboxEntry} for {@link OUTBOX_COLUMNS} (`call` as JSON text: cast it `::jsonb`). */
export function outboxValues(entry: OutboxEntry): unknown[] {
  return [
    entry.id,
    entry.createdAt,
    entry.updatedAt,
    entry.kind,
    JSON.stringify(entry.call),
    entry.runId,
    entry.dedupeKey,
    entry.leaseUntil,
    entry.attempts,
  ];
}

/** The process's batch of done marks: holds nothing a crash could not lose (see DoneMarks). */
const doneMarks = new DoneMarks();

/**
 * Makes the call of a committed row now, under the Temporal deadline of a request (503 when Temporal
 * does not answer in time), and marks the row done, in a batch a few milliseconds later, so the request
 * does not wait for that commit. Rejects when the call failed; the row stays pending, for the caller to
 * withdraw (withdraw) or leave to the sweep (release).
 */
export async function relayNow(deps: RelayDeps, em: EntityManager, entry: OutboxEntry): Promise<void> {
  await deps.temporal.call(() => perform(deps, em, entry.call));
  entry.doneAt = new Date();
  doneMarks.add(em, entry.id);
}

/**
 * Takes back a row whose call failed, in the caller's transaction, so the caller can undo its change.
 * False when the row was already done (the sweep made the call meanwhile): the change stands.
 */
export async function withdraw(em: EntityManager, entryId: string): Promise<boolean> {
  return (await em.nativeDelete(OutboxEntry, { id: entryId, doneAt: null })) > 0;
}

/**
 * Starts what a request just committed: the call now (`relayNow`); when it fails, the row withdrawn and
 * the request's change undone in one transaction, then 503 `unavailable`. When the sweep made the call
 * meanwhile (or makes it late) the row cannot be withdrawn, and the change stands.
 */
export async function relayOrUndo(
  deps: RelayDeps,
  em: EntityManager,
  entry: OutboxEntry,
  undo: (tx: EntityManager) => Promise<unknown>,
): Promise<void> {
  try {
    await relayNow(deps, em, entry);
  } catch {
    const undone = await em.fork().transactional(async (tx) => {
      if (!(await withdraw(tx, entry.id))) return false;
      await undo(tx);
      return true;
    });
    if (undone) throw errors.unavailable('Temporal');
  }
}

/** Hands rows whose call failed to the sweep at once. */
export async function release(em: EntityManager, entryIds: string[], err: unknown): Promise<void> {
  if (entryIds.length === 0) return;
  await em
    .fork()
    .nativeUpdate(
      OutboxEntry,
      { id: { $in: entryIds }, doneAt: null },
      { leaseUntil: null, lastError: errorText(err) },
    );
}

/** Makes the pending calls of one run now (a replayed create finishes what its first request began). */
export async function relayPendingOfRun(
  deps: RelayDeps,
  em: EntityManager,
  runId: string,
  kind: OutboxCall['kind'],
): Promise<void> {
  const rows = await em.fork().find(OutboxEntry, { runId, kind, doneAt: null }, { orderBy: { createdAt: 'asc' } });
  for (const row of rows) await relayNow(deps, em, row);
}

/**
 * The relay of leftovers: makes the calls of pending rows older than `graceSeconds` (younger ones may
 * still be made by their request) and not leased, oldest first, at most 100, optionally of some kinds
 * only. Safe on every API replica at once: a row is leased (`for update skip locked`) before its call.
 * A failed call puts its row off for a while (longer after each attempt) and ends the sweep, so an
 * outage costs one deadline a sweep. Returns how many calls it made.
 */
export async function sweepOutbox(
  deps: RelayDeps & { orm: Orm },
  graceSeconds: number,
  kinds?: Array<OutboxCall['kind']>,
): Promise<number> {
  const em = deps.orm.em.fork();
  const conn = em.getConnection();
  await conn.execute(`delete from outbox where done_at < now() - make_interval(days => ?)`, [KEEP_DONE_DAYS]);
  const rows: Array<{ id: string; call: OutboxCall; created_at: Date }> = await conn.execute(
    `update outbox set lease_until = now() + make_interval(secs => ?), attempts = attempts + 1, updated_at = now()
      where id in (
        select id from outbox
         where done_at is null and created_at < now() - make_interval(secs => ?)
           and (lease_until is null or lease_until < now())
           ${kinds ? 'and kind in (?)' : ''}
         order by created_at limit ? for update skip locked)
      returning id, call, created_at, attempts`,
    [LEASE_MS / 1000, graceSeconds, ...(kinds ? [kinds] : []), BATCH],
  );
  rows.sort((a, b) => new Date(a.created_at).getTime() - new Date(b.created_at).getTime());
  let made = 0;
  for (const [i, row] of rows.entries()) {
    try {
      await deps.temporal.call(() => perform(deps, em, row.call));
    } catch (err) {
      await conn.execute(
        `update outbox set lease_until = now() + make_interval(secs => least(power(2, attempts), 300)), last_error = ?
          where id = ?`,
        [errorText(err), row.id],
      );
      await release(
        em,
        rows.slice(i + 1).map((r) => r.id),
        err,
      );
      throw err;
    }
    await executePrepared(em, MARK_DONE, [[row.id], [row.id]]);
    made++;
  }
  return made;
}

/** The Temporal call a row describes, made by the handler its area registered for the kind. */
async function perform(deps: RelayDeps, em: EntityManager, call: OutboxCall): Promise<void> {
  await outboxCalls.handlerOf(call.kind)({ ...deps, em }, call);
}

function errorText(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).slice(0, 2000);
}
