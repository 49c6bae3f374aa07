import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Marks relayed outbox rows done in batches, off the path of the request that made their calls: one
 * statement for every row relayed within 25 ms, so at a high rate of creates one for many. The
 * mark only spares the sweep a call: every call is idempotent (domain/outbox/relay.ts), so a mark lost
 * with its process (a crash within the batch's few milliseconds) costs one repeated call when the row's
 * lease runs out, never a lost or doubled effect. Rows of different databases (two ORMs in one process,
 * as in the tests) are marked through their own connections.
 */
export class DoneMarks {
  /** By the database driver of the ORM the rows belong to. */
  private readonly pending = new Map<object, Pending>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly delayMs = 25) {}

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
        em
          .fork()
          .getConnection()
          .execute(`update outbox set done_at = now(), lease_until = null where id in (?) and done_at is null`, [ids])
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
