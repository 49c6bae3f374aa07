/**
 * `@svc/client`: typed, dependency-free ESM client of the svc API (a preview: its surface may change before release).
 * @packageDocumentation
 */
export { Svc, DEFAULT_BASE_URL } from './client.js';
export type { SvcOptions } from './client.js';
export {
  SvcError,
  ValidationError,
  AuthenticationError,
  BillingError,
  PermissionError,
  NotFoundError,
  ConflictError,
  RateLimitError,
  ServerError,
  ConnectionError,
  TimeoutError,
} from './errors.js';
export type { SvcErrorInit } from './errors.js';
export type { CallOptions, FetchLike, Query, RequestSpec } from './http.js';
export { CursorList } from './pagination.js';
export type { Page, PageFetcher } from './pagination.js';
export { verifyWebhookSignature, signWebhookPayload, SIGNATURE_HEADER } from './webhooks.js';
export type { RawBody, VerifyOptions } from './webhooks.js';
export type { WaitOptions } from './resources/runs.js';
export type { UploadBody } from './resources/files.js';
export type { Agents } from './resources/agents.js';
export type { ApiKeys } from './resources/api-keys.js';
export type { Audit } from './resources/audit.js';
export type { Apps } from './resources/apps.js';
export type { Phone } from './resources/phone.js';
export type { Files } from './resources/files.js';
export type { Folders } from './resources/folders.js';
export type { LocalRuns } from './resources/local-runs.js';
export type { Finance } from './resources/finance.js';
export type { PriceLists } from './resources/price-lists.js';
export type { OutputConnections } from './resources/output-connections.js';
export type { Projects } from './resources/projects.js';
export type { WhatsApp } from './resources/whatsapp.js';
export type { Flows } from './resources/flows.js';
export type { FlowRuns } from './resources/flow-runs.js';
export type { Knowledge } from './resources/knowledge.js';
export type { Evals } from './resources/evals.js';
export type { Tutor } from './resources/tutor.js';
export type { Copilot } from './resources/copilot.js';
export type { Proposals } from './resources/proposals.js';
export type { Search } from './resources/search.js';
export type { Runs } from './resources/runs.js';
export type { UsageResource } from './resources/usage.js';
export type { Webhooks } from './resources/webhooks.js';
export type { DataSources } from './resources/data-sources.js';
export type { SavedTables } from './resources/saved-tables.js';
export type { Workspace } from './resources/workspace.js';
export {
  RUN_STATUSES,
  TERMINAL_STATUSES,
  PAUSED_STATUSES,
  WEBHOOK_EVENTS,
  SCOPES,
  isRunStatus,
  isTerminalStatus,
} from './types.js';
export { FLOW_RUN_STATUSES, FLOW_RUN_TERMINAL_STATUSES, FLOW_STEP_STATUSES } from './flow-types.js';
export type * from './types.js';
export type * from './knowledge-types.js';
export type * from './data-source-types.js';
export type * from './eval-types.js';
export type * from './conversation-types.js';
export type * from './flow-types.js';
export type * from './output-types.js';
export type * from './audit-types.js';
export type * from './app-types.js';
export type * from './phone-types.js';
export type * from './whatsapp-types.js';
export type * from './finance-types.js';
export type * from './workspace-types.js';
export type * from './file-types.js';
export type * from './catalog-types.js';
export type * from './local-run-types.js';
