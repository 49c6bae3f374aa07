import { upsertSearchAttributes } from '@temporalio/workflow';
import type { RunStatus } from './messages';
import { SvcRunStatus } from './searchAttributes';

/**
 * How a run's status reaches `SvcRunStatus`, the search attribute Temporal UI filters runs by. Temporal
 * writes every upsert to its visibility store as a task of its own, so a change is upserted at the run's
 * next wait (`waiting()`: a gate, an activity through Temporal's task queues) or when it finishes: a
 * status the run leaves within the same workflow task (`running` between local activities) costs no write.
 */
export function runStatusAttribute() {
  // The API starts every run with SvcRunStatus `queued`.
  let shown: RunStatus = 'queued';
  let latest: RunStatus = 'queued';
  return {
    changed(status: RunStatus): void {
      latest = status;
    },
    waiting(): void {
      if (latest === shown) return;
      shown = latest;
      upsertSearchAttributes([{ key: SvcRunStatus, value: latest }]);
    },
  };
}
