import { upsertSearchAttributes } from '@temporalio/workflow';
import type { RunStatus } from './messages';
import { SvcRunStatus } from './searchAttributes';

/**
 * How a run's status reaches `SvcRunStatus`, the search attribute Temporal UI filters runs by. Temporal
 * writes every upsert to its visibility store as a task of its own. Runs recorded before the
 * `run-paths-2026-11-24` patch upsert every change at once; with `atWaits`, a change is upserted at the
 * run's next wait (`waiting()`: a gate, an activity through Temporal's task queues) or when it finishes,
 * so a status the run leaves within the same workflow task (`running` between local activities) costs
 * no write.
 */
export function runStatusAttribute(atWaits: boolean) {
  // The API starts every run with SvcRunStatus `queued`.
  let shown: RunStatus = 'queued';
  let latest: RunStatus = 'queued';
  return {
    changed(status: RunStatus): void {
      if (atWaits) latest = status;
      else upsertSearchAttributes([{ key: SvcRunStatus, value: status }]);
    },
    waiting(): void {
      if (latest === shown) return;
      shown = latest;
      upsertSearchAttributes([{ key: SvcRunStatus, value: latest }]);
    },
  };
}
