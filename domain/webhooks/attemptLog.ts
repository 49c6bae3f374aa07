import type { EntityManager } from '@mikro-orm/postgresql';
import type { SignedPostResult } from '../deliveries/signedPost';
import { SLOT_HOLD_SECONDS } from './slots';

/**
 * What the fan-out's first attempts record about a delivery (firstAttempts.ts):
 * - `succeeded`: attempt 1 got a 2xx; logged, the delivery `succeeded`, its slot given back.
 * - `attempted`: attempt 1 failed; logged, the delivery keeps its slot (renewed) for attempts 2 and 3.
 * - `holds`: the delivery took over the slot of one that succeeded just before (its attempt is on the way).
 * - `gone`: no longer pending or its subscription is gone: `failed` if still pending, its slot given back.
 */
export type LogEntryKind = 'succeeded' | 'attempted' | 'holds' | 'gone';

/**
 * The delivery log writes of one fan-out, buffered and written in one statement per flush instead of
 * one per attempt. Entries are written in the order they were added, never split across flushes out
 * of order: a slot passed from a delivery that succeeded to the next (`holds`) is recorded in the same
 * statement as the release or a later one, so the workspace's count of held slots (slots.ts) never
 * goes above what was claimed.
 */
export class AttemptLog {
  private buffered: Array<{ id: string; kind: LogEntryKind; attempt?: SignedPostResult }> = [];

  constructor(private readonly onAdd: () => void = () => undefined) {}

  get size(): number {
    return this.buffered.length;
  }

  add(id: string, kind: LogEntryKind, attempt?: SignedPostResult): void {
    this.buffered.push({ id, kind, attempt });
    this.onAdd();
  }

  /**
   * Writes everything buffered so far in one statement; on failure the entries stay buffered, ahead
   * of any added since, for the next flush.
   * @throws only when the database fails
   */
  async flush(em: EntityManager): Promise<void> {
    if (this.buffered.length === 0) return;
    const batch = this.buffered;
    this.buffered = [];
    // One row per delivery: its attempts in order, and what it came to last.
    const rows = new Map<string, { kind: LogEntryKind; attempts: SignedPostResult[] }>();
    for (const e of batch) {
      const row = rows.get(e.id) ?? { kind: e.kind, attempts: [] };
      row.kind = e.kind;
      if (e.attempt) row.attempts.push(e.attempt);
      rows.set(e.id, row);
    }
    try {
      await em.getConnection().execute(
        `update webhook_deliveries d set attempts = d.attempts || v.attempts,
           status = case when v.kind = 'succeeded' then 'succeeded'
                         when v.kind = 'gone' and d.status = 'pending' then 'failed' else d.status end,
           slot_until = case when v.kind in ('succeeded', 'gone') then null
                             else now() + make_interval(secs => ?) end,
           updated_at = now()
         from (values ${[...rows.keys()].map(() => '(?::uuid, ?::jsonb, ?)').join(', ')}) v(id, attempts, kind)
         where d.id = v.id`,
        [SLOT_HOLD_SECONDS, ...[...rows].flatMap(([id, r]) => [id, JSON.stringify(r.attempts), r.kind])],
      );
    } catch (err) {
      this.buffered = batch.concat(this.buffered);
      throw err;
    }
  }
}
