import { proxyActivities } from '@temporalio/workflow';
import type { SavedTableActivities } from './activityTypes';

// Short attempts; a database hiccup is retried, 1 s doubling to 30 s, 5 attempts in all. A failing
// source is not an activity failure: the activity records it on the saved table and returns.
const { refreshSavedTable } = proxyActivities<SavedTableActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { maximumAttempts: 5, initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

/** One refresh of a saved table (`saved-table-<id>`, by hand or from its schedule; docs/api/data-sources.md). */
export async function savedTableRefreshWorkflow(savedTableId: string): Promise<void> {
  await refreshSavedTable(savedTableId);
}

/** The workflow id of a saved table's refresh, and of its schedule. */
export function savedTableWorkflowId(savedTableId: string): string {
  return `saved-table-${savedTableId}`;
}
