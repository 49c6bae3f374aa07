import { defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { SavedTableActivities } from './activityTypes';
import { TABLE_REFRESH } from './retryPolicies';

// Short attempts; a database hiccup is retried, 1 s doubling to 30 s, 5 attempts in all. A failing
// source is not an activity failure: the activity records it on the saved table and returns.
const { refreshSavedTable } = proxyActivities<SavedTableActivities>({
  startToCloseTimeout: '2 minutes',
  retry: TABLE_REFRESH,
});

/**
 * A refresh asked for while one runs. The running read may have passed the source already, so the
 * workflow reads once more when it is done; requests arriving meanwhile fold into that one read.
 */
export const refreshAgainSignal = defineSignal<[]>('refreshAgain');

export interface SavedTableRefreshArgs {
  savedTableId: string;
}

/** One refresh of a saved table (`saved-table-<id>`, by hand or from its schedule; docs/api/data-sources.md). */
export async function savedTableRefreshWorkflow({ savedTableId }: SavedTableRefreshArgs): Promise<void> {
  // Without the signal this issues the same single activity as before: no patch needed.
  let again = false;
  setHandler(refreshAgainSignal, () => {
    again = true;
  });
  do {
    again = false;
    await refreshSavedTable(savedTableId);
  } while (again);
}

/** The workflow id of a saved table's refresh, and of its schedule. */
export function savedTableWorkflowId(savedTableId: string): string {
  return `saved-table-${savedTableId}`;
}
