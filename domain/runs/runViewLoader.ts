import type { AbstractSqlConnection } from '@mikro-orm/postgresql';
import { pooledRows } from '../../platform/database/rows';

/** What one statement answers: at most this many reads. */
const MAX_BATCH = 64;

interface Waiting {
  workspaceId: string;
  id: string;
  resolve: (view: string | undefined) => void;
  reject: (err: unknown) => void;
}

/** Runs a batch's statement (distinct keys): the views by index into `keys`; a missing index found nothing. */
export type BatchSelect = (
  db: AbstractSqlConnection,
  keys: Array<{ workspaceId: string; id: string }>,
) => Promise<Map<number, string>>;

/**
 * Coalesces concurrent reads of run views (`GET /v1/runs/{id}`) into few statements: the reads that arrive
 * in the same turn of the event loop, or while the process has `maxInFlight` statements out already, are
 * answered by one statement (up to {@link MAX_BATCH} reads). Polling clients read the same runs over and
 * over; one statement for many reads costs PostgreSQL and the API less than a statement each. A speed trick,
 * kept in this one module with its hand-scheduled turn: PostgreSQL's CPU a GET went from 72 to 49–53 µs, and
 * to 35 once a run read twice in a batch was selected once (bench/cpuPerRequest.ts; bench/README.md, case 4).
 * test/runs/viewBatch.test.ts holds it equal to a statement a read: each caller its own run, in its own
 * workspace, the same 404s and errors.
 *
 * A lone read waits for no timer: it goes out at the end of the current turn (`setImmediate`, after the
 * sockets that were ready have been read). A read is answered only by a statement sent after it arrived,
 * so it sees every write committed before it (read-after-write). A failing statement fails each of its
 * reads with the statement's own error. A run read twice in one batch is selected once: views are JSON
 * text, so callers that share one share no mutable object.
 */
export class RunViewLoader {
  private queue: Waiting[] = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    private readonly db: AbstractSqlConnection,
    private readonly select: BatchSelect,
    private readonly maxInFlight: number,
  ) {}

  /** The view of run `id` of `workspaceId` as JSON text, undefined when there is no such run there. */
  load(workspaceId: string, id: string): Promise<string | undefined> {
    return new Promise((resolve, reject) => {
      this.queue.push({ workspaceId, id, resolve, reject });
      if (!this.scheduled && this.inFlight < this.maxInFlight) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.flush();
        });
      }
    });
  }

  /** Sends what waits, a batch at a time, while fewer than `maxInFlight` statements are out. */
  private flush(): void {
    while (this.queue.length > 0 && this.inFlight < this.maxInFlight) {
      const batch = this.queue.length <= MAX_BATCH ? this.queue : this.queue.slice(0, MAX_BATCH);
      this.queue = this.queue.length <= MAX_BATCH ? [] : this.queue.slice(MAX_BATCH);
      this.inFlight++;
      // a run read twice in a batch is selected once; its callers share the view, immutable text
      const keys: Array<{ workspaceId: string; id: string }> = [];
      const slots = new Map<string, number>();
      const slotOf = batch.map(({ workspaceId, id }) => {
        const key = `${workspaceId}/${id}`;
        let slot = slots.get(key);
        if (slot === undefined) {
          slot = keys.push({ workspaceId, id }) - 1;
          slots.set(key, slot);
        }
        return slot;
      });
      this.select(this.db, keys)
        .then(
          (views) => {
            for (let i = 0; i < batch.length; i++) batch[i].resolve(views.get(slotOf[i]));
          },
          (err: unknown) => {
            for (const waiting of batch) waiting.reject(err);
          },
        )
        .finally(() => {
          this.inFlight--;
          // reads that came while every statement was out go now: they have waited one statement already
          this.flush();
        });
    }
  }
}
