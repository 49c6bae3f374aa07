import type { EntityManager } from '@mikro-orm/postgresql';
import { executePrepared } from '../../../db/preparedStatement';

/**
 * What marks relayed rows done (an array of their ids, twice: the statement's two parameters; run through
 * executePrepared). A row without a dedupe key is deleted: nothing reads it once its call is made, and a
 * delete writes no new row version or index entries (an update of `done_at` moves the row out of the
 * pending index, so it writes both). A row with one stays a week marked done: a retried answer finds its
 * first row by its key (answerGate).
 *
 * Its commit does not wait for the WAL flush (`synchronous_commit` off for this transaction alone): a mark
 * lost in a database crash costs one repeated, idempotent call, as one lost with its process does, and
 * the flush it no longer waits for (a system call that costs PostgreSQL more CPU than the statement) is
 * made by the next commit that needs one, a create's, for both.
 */
export const MARK_DONE = `with quiet as (select set_config('synchronous_commit', 'off', true) as off),
  gone as (delete from outbox where id = any(?::uuid[]) and dedupe_key is null and done_at is null
                                 and exists (select 1 from quiet))
  update outbox set done_at = now(), lease_until = null
   where id = any(?::uuid[]) and dedupe_key is not null and done_at is null and exists (select 1 from quiet)`;

/**
 * Marks relayed outbox rows done in batches, off the path of the request that made their calls: one
 * statement for every row relayed within 100 ms, so at a high rate of creates one for many (a statement's
 * own cost, not its rows', is most of what a mark costs PostgreSQL). The mark only spares the sweep a
 * call: every call is idempotent (domain/shared/outbox/relay.ts), so a mark lost with its process (a crash
 * within the batch's 100 ms) costs one repeated call when the row's 30 s lease runs out, never a lost or
 * doubled effect. Rows of different databases (two ORMs in one process, as in the tests) are marked
 * through their own connections.
 */
export class DoneMarks {
  /** By the database driver of the ORM the rows belong to. */
  private readonly pending = new Map<object, Pending>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly delayMs = 100) {}

  /** Schedules the mark of `entryId`, done with `em`'s database. */
  add(em: EntityManager, entryId: string): void {
    const driver = em.getDriver();
    let batch = this.pending.get(driver);
    if (!batch) this.pending.set(driver, (batch = { em, ids: [] }));
    batch.ids.push(entryId);
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.delayMs);
      this.timer.unref();
    }
  }

  /** Writes every scheduled mark now: one statement per database. */
  async flush(): Promise<void> {
    this.timer = null;
    const batches = [...this.pending.values()];
    this.pending.clear();
    await Promise.all(
      batches.map(({ em, ids }) =>
        executePrepared(em.fork(), MARK_DONE, [ids, ids])
          // A database gone meanwhile (shut down, an outage): the sweep makes the calls again once their
          // lease ends, and they change nothing.
          .catch(() => undefined),
      ),
    );
  }
}

interface Pending {
  em: EntityManager;
  ids: string[];
}
