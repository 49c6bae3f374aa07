import type { Pool } from 'pg';

/** The baseline workflows' activities: they do nothing, so what remains is Temporal's own cost. */
export const bareActivities = {
  async step(_index: number): Promise<void> {
    // nothing
  },
};

export type BareActivities = typeof bareActivities;

/**
 * The activities of the necessary-work baseline: each records one status of a run in one durable commit
 * (a row of the baseline's own table, `bench_baseline_runs`, written through `pg`), and nothing else.
 */
export function durableActivities(db: Pool) {
  return {
    async record(runId: string, status: string): Promise<void> {
      // completed_at: when the run ended, for the soak's baseline (bench/cases/soakBaseline.ts)
      await db.query(
        `update bench_baseline_runs set status = $2::text,
                completed_at = case when $2::text = 'succeeded' then clock_timestamp() end
          where id = $1`,
        [runId, status],
      );
    },
  };
}

export type DurableActivities = ReturnType<typeof durableActivities>;
