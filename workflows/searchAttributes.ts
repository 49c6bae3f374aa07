import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/**
 * Operators filter runs in Temporal UI by these (docs/api/runs.md). Registered by scripts/temporal.sh
 * (`--search-attribute …=Keyword`); set at start by the API and kept current by the workflow.
 */
export const SvcWorkspaceId = defineSearchAttributeKey('SvcWorkspaceId', SearchAttributeType.KEYWORD);
export const SvcAgentId = defineSearchAttributeKey('SvcAgentId', SearchAttributeType.KEYWORD);
export const SvcRunStatus = defineSearchAttributeKey('SvcRunStatus', SearchAttributeType.KEYWORD);
