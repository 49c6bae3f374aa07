/**
 * The property names of the response types, as runtime values, so a test can compare them with the
 * service's OpenAPI document (`GET /v1/openapi.json`) and fail when the two drift apart.
 *
 * Each map is checked against its type at compile time by `satisfies Fields<T>`: a key the type lacks is
 * an excess property, a key of the type missing from the map is an error, and a key marked `required`
 * that the type declares optional (or the reverse), or nullable (`|null`) when the type does not admit
 * `null` (or the reverse), is a type mismatch. So the maps cannot drift from the types, and the OpenAPI
 * test keeps the types from drifting from the service.
 */
import type { App, AppDomain, AppDomainCheck, AppFormField, AppTemplate, AppUsage } from './app-types.js';
import type { AuditEntry } from './audit-types.js';
import type { Model, ModelPricing, Preset, Tool } from './catalog-types.js';
import type { Folder } from './file-types.js';
import type { AgentDefinition, LocalRunReport, RecordedLocalRun, SavedRead } from './local-run-types.js';
import type {
  CreatedPhoneNumber,
  PhoneBooking,
  PhoneCalendar,
  PhoneCall,
  PhoneModel,
  PhoneNumber,
  PhoneTranscriptEntry,
  PhoneVoice,
  PhoneAgent,
} from './phone-types.js';
import type {
  Agent,
  AgentSettings,
  AgentVersion,
  ApiKey,
  Balance,
  CreatedApiKey,
  Feedback,
  FileObject,
  InputFile,
  LocalRunBatch,
  LocalRunBatchDetail,
  PriceList,
  PricingMatch,
  PricingRule,
  Project,
  Quote,
  ProjectMember,
  Run,
  RunError,
  RunOutput,
  RunStep,
  RunUsage,
  Usage,
  Webhook,
  WebhookDelivery,
  WebhookDeliveryAttempt,
  WebhookDeliveryBody,
} from './types.js';
import type {
  FinanceApplyResult,
  FinanceCategory,
  FinanceImport,
  FinanceRule,
  FinanceSummary,
  FinanceTransaction,
} from './finance-types.js';
import type {
  OutputConnection,
  OutputDelivery,
  OutputDeliveryAttempt,
  RunArtifact,
  RunDashboard,
  RunReport,
  RunShare,
} from './output-types.js';
import type { KnowledgeDocument, KnowledgeSearchResult, KnowledgeSource, SearchResult } from './knowledge-types.js';
import type {
  DataSource,
  DataSourceConfig,
  DataSourceTestResult,
  ReadResult,
  SavedTable,
  SavedTableRows,
  SourceColumn,
  SourceObject,
  SourceObjectDetail,
  UploadedSheets,
} from './data-source-types.js';
import type {
  AgentCopilotReply,
  ConversationMessage,
  DataSourceCopilotReply,
  TutorReply,
  TutorSession,
  CopilotSession,
} from './conversation-types.js';
import type { Eval, EvalCase, EvalResult, EvalRun, Proposal, ProposalChanges } from './eval-types.js';
import type { Flow, FlowRun, FlowTemplate } from './flow-types.js';
import type { WorkspaceMember } from './workspace-types.js';
import type {
  WhatsAppAccount,
  WhatsAppConversation,
  WhatsAppConversationDetail,
  WhatsAppMessage,
  WhatsAppRedelivery,
} from './whatsapp-types.js';

/** `required` or `optional`, as `T` declares key `K`. */
type Presence<T, K extends keyof T> = {} extends Pick<T, K> ? 'optional' : 'required';

/**
 * Every key of `T`, each marked `required` or `optional` as `T` declares it, with `|null` appended when its
 * type admits `null` (`string | null`, but also `unknown` and {@link JsonValue}-like types).
 */
export type Fields<T> = { [K in keyof T]-?: null extends T[K] ? `${Presence<T, K>}|null` : Presence<T, K> };

/** One entry of a {@link Fields} map. */
export type Field = 'required' | 'optional' | 'required|null' | 'optional|null';

const R = 'required';
/** Always present, may be `null`. */
const N = 'required|null';

export const RUN_FIELDS = {
  id: R,
  agentId: R,
  agentVersion: R,
  status: R,
  input: R,
  output: N,
  error: N,
  pendingAction: N,
  usage: R,
  metadata: R,
  createdAt: R,
  updatedAt: R,
  startedAt: N,
  completedAt: N,
} as const satisfies Fields<Run>;
export const RUN_USAGE_FIELDS = { inputTokens: R, outputTokens: R, costUsd: R } as const satisfies Fields<RunUsage>;
export const RUN_ERROR_FIELDS = { code: R, message: R } as const satisfies Fields<RunError>;
export const RUN_OUTPUT_FIELDS = { runId: R, status: R, output: N } as const satisfies Fields<RunOutput>;
export const RUN_STEP_FIELDS = {
  index: R,
  type: R,
  status: R,
  detail: R,
  startedAt: R,
  completedAt: N,
} as const satisfies Fields<RunStep>;
export const FEEDBACK_FIELDS = {
  id: R,
  runId: R,
  rating: R,
  correctedOutput: N,
  comment: N,
  createdAt: R,
} as const satisfies Fields<Feedback>;

export const AGENT_FIELDS = {
  id: R,
  name: R,
  version: R,
  presetId: R,
  projectId: N,
  savedTableIds: R,
  instructions: 'optional|null',
  modelId: R,
  tools: R,
  settings: R,
  createdAt: R,
  updatedAt: R,
} as const satisfies Fields<Agent>;
export const PHONE_AGENT_FIELDS = { ...AGENT_FIELDS, numbers: R } as const satisfies Fields<PhoneAgent>;
export const AGENT_VERSION_FIELDS = {
  version: R,
  instructions: 'optional|null',
  modelId: R,
  tools: R,
  settings: R,
  createdAt: R,
} as const satisfies Fields<AgentVersion>;
export const AGENT_SETTINGS_FIELDS = {
  approval: R,
  approvalTools: 'optional',
  approvalPolicy: 'optional|null',
  review: R,
  maxSteps: R,
  saveOutput: 'optional',
  voice: 'optional',
} as const satisfies Fields<AgentSettings>;

export const PROJECT_FIELDS = {
  id: R,
  name: R,
  description: N,
  createdAt: R,
  updatedAt: R,
} as const satisfies Fields<Project>;
export const PROJECT_MEMBER_FIELDS = {
  projectId: R,
  userId: R,
  role: R,
  createdAt: R,
  updatedAt: R,
} as const satisfies Fields<ProjectMember>;

export const WORKSPACE_MEMBER_FIELDS = {
  userId: R,
  email: R,
  name: N,
  role: R,
} as const satisfies Fields<WorkspaceMember>;

export const PRICE_LIST_FIELDS = {
  id: R,
  name: R,
  isDefault: R,
  createdAt: R,
  updatedAt: R,
} as const satisfies Fields<PriceList>;
export const PRICING_RULE_FIELDS = {
  id: R,
  priceListId: R,
  match: R,
  perRunUsd: N,
  inputPerMTokUsd: N,
  outputPerMTokUsd: N,
  markupPercent: N,
  priority: R,
  createdAt: R,
  updatedAt: R,
} as const satisfies Fields<PricingRule>;
export const PRICING_MATCH_FIELDS = { agentId: N, modelId: N, appId: N } as const satisfies Fields<PricingMatch>;
export const QUOTE_FIELDS = { priceUsd: R, ruleId: N } as const satisfies Fields<Quote>;

export const FILE_FIELDS = {
  id: R,
  filename: R,
  mime: R,
  size: R,
  sha256: R,
  folderId: N,
  createdAt: R,
} as const satisfies Fields<FileObject>;

export const FOLDER_FIELDS = {
  id: R,
  name: R,
  parentId: N,
  createdAt: R,
  updatedAt: R,
} as const satisfies Fields<Folder>;

export const PRESET_FIELDS = {
  id: R,
  name: R,
  description: R,
  modelId: R,
  instructions: N,
  tools: R,
  settings: R,
} as const satisfies Fields<Preset>;
export const MODEL_FIELDS = { id: R, provider: R, pricing: R } as const satisfies Fields<Model>;
export const MODEL_PRICING_FIELDS = {
  inputPerMTokUsd: R,
  outputPerMTokUsd: R,
  perRunUsd: R,
} as const satisfies Fields<ModelPricing>;
export const TOOL_FIELDS = { name: R, description: R, parameters: R } as const satisfies Fields<Tool>;

export const AGENT_DEFINITION_FIELDS = {
  id: R,
  name: R,
  version: R,
  modelId: R,
  tools: R,
  settings: R,
  instructions: 'optional|null',
  savedReads: 'optional',
} as const satisfies Fields<AgentDefinition>;
export const SAVED_READ_FIELDS = { savedTableId: R, name: R, read: R } as const satisfies Fields<SavedRead>;
export const LOCAL_RUN_REPORT_FIELDS = { batchId: R, runs: R } as const satisfies Fields<LocalRunReport>;
export const RECORDED_LOCAL_RUN_FIELDS = { id: R, status: R } as const satisfies Fields<RecordedLocalRun>;

export const API_KEY_FIELDS = {
  id: R,
  name: R,
  scopes: R,
  prefix: R,
  monthlySpendCapUsd: N,
  spentThisMonthUsd: R,
  createdAt: R,
  lastUsedAt: N,
} as const satisfies Fields<ApiKey>;
export const CREATED_API_KEY_FIELDS = {
  id: R,
  name: R,
  scopes: R,
  key: R,
  prefix: R,
  monthlySpendCapUsd: N,
  createdAt: R,
} as const satisfies Fields<CreatedApiKey>;

export const AUDIT_ENTRY_FIELDS = {
  id: R,
  at: R,
  action: R,
  resourceType: R,
  resourceId: R,
  actor: R,
  ip: N,
  userAgent: N,
  requestId: N,
  details: R,
  prevHash: R,
  hash: R,
} as const satisfies Fields<AuditEntry>;

const TOTALS = { runs: R, inputTokens: R, outputTokens: R, costUsd: R } as const;
export const USAGE_FIELDS = {
  from: R,
  to: R,
  ...TOTALS,
  byDay: R,
  byAgent: R,
  billedUsd: 'optional',
} as const satisfies Fields<Usage>;
export const USAGE_DAY_FIELDS = { date: R, ...TOTALS } as const satisfies Fields<Usage['byDay'][number]>;
export const USAGE_AGENT_FIELDS = { agentId: R, ...TOTALS } as const satisfies Fields<Usage['byAgent'][number]>;
export const BALANCE_FIELDS = { balanceUsd: R, plan: R, entitlements: R } as const satisfies Fields<Balance>;
export const ENTITLEMENTS_FIELDS = { apiRateLimitPerMin: R } as const satisfies Fields<Balance['entitlements']>;

export const WEBHOOK_FIELDS = {
  id: R,
  url: R,
  events: R,
  status: R,
  createdAt: R,
  updatedAt: R,
} as const satisfies Fields<Webhook>;
export const WEBHOOK_DELIVERY_FIELDS = {
  id: R,
  type: R,
  runId: R,
  status: R,
  attempts: R,
  createdAt: R,
} as const satisfies Fields<WebhookDelivery>;
export const WEBHOOK_ATTEMPT_FIELDS = {
  at: R,
  statusCode: N,
  error: N,
} as const satisfies Fields<WebhookDeliveryAttempt>;
/** The body the service POSTs to a webhook receiver (not in the OpenAPI document; checked on a real delivery). */
export const WEBHOOK_BODY_FIELDS = { id: R, type: R, run: R } as const satisfies Fields<WebhookDeliveryBody>;
export const WEBHOOK_BODY_RUN_FIELDS = {
  id: R,
  status: R,
  output: N,
  error: N,
} as const satisfies Fields<WebhookDeliveryBody['run']>;

export const KNOWLEDGE_FIELDS = {
  id: R,
  title: R,
  source: R,
  chars: R,
  agentIds: R,
  projectId: N,
  createdAt: R,
  updatedAt: R,
  text: 'optional',
} as const satisfies Fields<KnowledgeDocument>;
export const KNOWLEDGE_SOURCE_FIELDS = { type: R, fileId: N, format: R } as const satisfies Fields<KnowledgeSource>;
export const KNOWLEDGE_SEARCH_RESULT_FIELDS = {
  documentId: R,
  title: R,
  snippet: R,
  score: R,
} as const satisfies Fields<KnowledgeSearchResult>;
export const SEARCH_RESULT_FIELDS = { type: R, id: R, title: R, snippet: R } as const satisfies Fields<SearchResult>;

export const DATA_SOURCE_FIELDS = {
  id: R,
  name: R,
  type: R,
  status: R,
  config: R,
  createdAt: R,
  updatedAt: R,
} as const satisfies Fields<DataSource>;
export const DATA_SOURCE_CONFIG_FIELDS = {
  host: 'optional',
  port: 'optional',
  database: 'optional',
  user: 'optional',
  ssl: 'optional',
} as const satisfies Fields<DataSourceConfig>;
export const DATA_SOURCE_TEST_FIELDS = {
  ok: R,
  latencyMs: R,
  error: 'optional',
} as const satisfies Fields<DataSourceTestResult>;
export const SOURCE_OBJECT_FIELDS = { name: R, kind: R } as const satisfies Fields<SourceObject>;
export const SOURCE_OBJECT_DETAIL_FIELDS = { name: R, columns: R } as const satisfies Fields<SourceObjectDetail>;
export const SOURCE_COLUMN_FIELDS = { name: R, type: R, nullable: R } as const satisfies Fields<SourceColumn>;
export const READ_RESULT_FIELDS = { columns: R, rows: R, truncated: R } as const satisfies Fields<ReadResult>;
export const UPLOADED_SHEETS_FIELDS = { objects: R } as const satisfies Fields<UploadedSheets>;
export const SAVED_TABLE_FIELDS = {
  id: R,
  name: R,
  dataSourceId: R,
  read: R,
  refresh: R,
  rowCount: R,
  columns: R,
  refreshedAt: N,
  status: R,
  error: N,
  createdAt: R,
  updatedAt: R,
} as const satisfies Fields<SavedTable>;
export const SAVED_TABLE_ROWS_FIELDS = { rows: R, nextCursor: N } as const satisfies Fields<SavedTableRows>;
export const EVAL_FIELDS = { id: R, agentId: R, name: R, cases: R, createdAt: R } as const satisfies Fields<Eval>;
export const EVAL_CASE_FIELDS = {
  input: R,
  answers: 'optional',
  expected: N,
  scorer: R,
} as const satisfies Fields<EvalCase>;
export const EVAL_RUN_FIELDS = {
  id: R,
  evalId: R,
  agentVersion: R,
  status: R,
  total: R,
  passed: R,
  score: N,
  results: R,
  createdAt: R,
  completedAt: N,
} as const satisfies Fields<EvalRun>;
export const EVAL_RESULT_FIELDS = {
  caseIndex: R,
  runId: N,
  passed: R,
  score: R,
  detail: N,
} as const satisfies Fields<EvalResult>;
export const PROPOSAL_FIELDS = {
  id: R,
  agentId: R,
  baseVersion: R,
  status: R,
  changes: R,
  rationale: R,
  sourceFeedbackIds: R,
  createdAt: R,
} as const satisfies Fields<Proposal>;
export const PROPOSAL_CHANGES_FIELDS = {
  instructions: 'optional|null',
  settings: 'optional',
  modelId: 'optional',
  tools: 'optional',
} as const satisfies Fields<ProposalChanges>;
export const FLOW_FIELDS = {
  id: R,
  name: R,
  description: N,
  projectId: N,
  status: R,
  trigger: R,
  steps: R,
  webhookUrl: N,
  createdAt: R,
  updatedAt: R,
} as const satisfies Fields<Flow>;
export const FLOW_TEMPLATE_FIELDS = {
  id: R,
  name: R,
  description: R,
  needsAgent: R,
  trigger: R,
  steps: R,
} as const satisfies Fields<FlowTemplate>;
export const FLOW_RUN_FIELDS = {
  id: R,
  flowId: R,
  status: R,
  trigger: R,
  steps: R,
  error: N,
  pendingApproval: N,
  createdAt: R,
  completedAt: N,
} as const satisfies Fields<FlowRun>;
export const WEBHOOK_TOKEN_FIELDS = { webhookUrl: R } as const satisfies Fields<{ webhookUrl: string }>;
export const OUTPUT_CONNECTION_FIELDS = {
  id: R,
  name: R,
  type: R,
  url: N,
  savedTableId: N,
  createdAt: R,
  updatedAt: R,
} as const satisfies Fields<OutputConnection>;
export const OUTPUT_DELIVERY_FIELDS = {
  id: R,
  runId: N,
  flowRunId: N,
  status: R,
  attempts: R,
  createdAt: R,
} as const satisfies Fields<OutputDelivery>;
export const OUTPUT_ATTEMPT_FIELDS = {
  at: R,
  statusCode: N,
  error: N,
} as const satisfies Fields<OutputDeliveryAttempt>;
export const RUN_SHARE_FIELDS = { url: R, token: R } as const satisfies Fields<RunShare>;
export const RUN_DASHBOARD_FIELDS = {
  id: R,
  status: R,
  output: N,
  steps: R,
  completedAt: N,
  shared: R,
} as const satisfies Fields<RunDashboard>;
export const RUN_ARTIFACT_FIELDS = {
  fileId: R,
  name: R,
  mime: R,
  size: R,
  step: N,
  createdAt: R,
} as const satisfies Fields<RunArtifact>;
export const RUN_REPORT_FIELDS = {
  run: R,
  agent: R,
  timeline: R,
  output: N,
  error: N,
  usage: R,
  artifacts: R,
} as const satisfies Fields<RunReport>;
export const INPUT_FILE_FIELDS = { ...FILE_FIELDS, lastUsedAt: R, runId: R } as const satisfies Fields<InputFile>;
export const LOCAL_RUN_BATCH_FIELDS = {
  id: R,
  agentId: R,
  count: R,
  createdAt: R,
} as const satisfies Fields<LocalRunBatch>;
export const LOCAL_RUN_BATCH_DETAIL_FIELDS = {
  ...LOCAL_RUN_BATCH_FIELDS,
  runIds: R,
} as const satisfies Fields<LocalRunBatchDetail>;
export const APP_FIELDS = {
  id: R,
  name: R,
  slug: R,
  description: N,
  agentId: R,
  status: R,
  form: R,
  priceListId: N,
  domains: R,
  publicUrl: R,
  createdAt: R,
  updatedAt: R,
} as const satisfies Fields<App>;
export const APP_FORM_FIELD_FIELDS = {
  name: R,
  label: R,
  type: R,
  required: R,
  options: 'optional',
  multiple: 'optional',
} as const satisfies Fields<AppFormField>;
export const APP_DOMAIN_FIELDS = {
  hostname: R,
  status: R,
  verification: R,
  verifiedAt: N,
  createdAt: R,
} as const satisfies Fields<AppDomain>;
export const APP_DOMAIN_CHECK_FIELDS = { ...APP_DOMAIN_FIELDS, check: R } as const satisfies Fields<AppDomainCheck>;
export const APP_TEMPLATE_FIELDS = { id: R, name: R, description: R, form: R } as const satisfies Fields<AppTemplate>;
export const APP_USAGE_FIELDS = {
  appId: R,
  from: R,
  to: R,
  runs: R,
  inputTokens: R,
  outputTokens: R,
  costUsd: R,
  priceListId: N,
  billedUsd: N,
} as const satisfies Fields<AppUsage>;

export const PHONE_VOICE_FIELDS = { id: R, name: R, language: R, gender: R } as const satisfies Fields<PhoneVoice>;
export const PHONE_MODEL_FIELDS = { id: R, provider: R, pricing: R } as const satisfies Fields<PhoneModel>;
export const PHONE_NUMBER_FIELDS = {
  id: R,
  e164: R,
  provider: R,
  agentId: R,
  createdAt: R,
  updatedAt: R,
} as const satisfies Fields<PhoneNumber>;
export const CREATED_PHONE_NUMBER_FIELDS = {
  ...PHONE_NUMBER_FIELDS,
  callbackUrl: R,
} as const satisfies Fields<CreatedPhoneNumber>;
export const PHONE_SECRET_FIELDS = { callbackUrl: R } as const satisfies Fields<{ callbackUrl: string }>;
export const PHONE_CALL_FIELDS = {
  id: R,
  numberId: R,
  direction: R,
  from: R,
  to: R,
  status: R,
  purpose: N,
  transcript: R,
  durationSec: N,
  costUsd: R,
  createdAt: R,
  startedAt: N,
  endedAt: N,
} as const satisfies Fields<PhoneCall>;
export const PHONE_TRANSCRIPT_FIELDS = { role: R, text: R, at: R } as const satisfies Fields<PhoneTranscriptEntry>;
export const PHONE_CALENDAR_FIELDS = {
  timezone: R,
  weeklyHours: R,
  slotMinutes: R,
  slots: R,
  bookings: R,
} as const satisfies Fields<PhoneCalendar>;
export const PHONE_BOOKING_FIELDS = {
  id: R,
  start: R,
  end: R,
  name: N,
  phone: N,
  callId: N,
} as const satisfies Fields<PhoneBooking>;
export const TUTOR_SESSION_FIELDS = {
  id: R,
  agentId: R,
  topic: R,
  status: R,
  endedReason: N,
  createdAt: R,
  updatedAt: R,
  endedAt: N,
  messages: 'optional',
} as const satisfies Fields<TutorSession>;
export const TUTOR_REPLY_FIELDS = { reply: R, runId: N, duplicate: R } as const satisfies Fields<TutorReply>;
export const COPILOT_SESSION_FIELDS = {
  id: R,
  agentId: R,
  subjectId: R,
  status: R,
  endedReason: N,
  createdAt: R,
  updatedAt: R,
  endedAt: N,
  messages: 'optional',
} as const satisfies Fields<CopilotSession>;
export const CONVERSATION_MESSAGE_FIELDS = {
  seq: R,
  role: R,
  text: R,
  runId: N,
  createdAt: R,
} as const satisfies Fields<ConversationMessage>;
export const AGENT_COPILOT_FIELDS = {
  conversationId: R,
  reply: R,
  runId: N,
  proposal: N,
} as const satisfies Fields<AgentCopilotReply>;
export const DATA_SOURCE_COPILOT_FIELDS = {
  conversationId: R,
  reply: R,
  runId: N,
  read: N,
  result: N,
} as const satisfies Fields<DataSourceCopilotReply>;

export const WHATSAPP_ACCOUNT_FIELDS = {
  id: R,
  phoneNumberId: R,
  agentId: R,
  template: N,
  webhookUrl: R,
  createdAt: R,
  updatedAt: R,
} as const satisfies Fields<WhatsAppAccount>;
export const WHATSAPP_CONVERSATION_FIELDS = {
  id: R,
  accountId: R,
  agentId: R,
  waId: R,
  status: R,
  endedReason: N,
  createdAt: R,
  updatedAt: R,
  endedAt: N,
} as const satisfies Fields<WhatsAppConversation>;
export const WHATSAPP_CONVERSATION_DETAIL_FIELDS = {
  ...WHATSAPP_CONVERSATION_FIELDS,
  messages: R,
} as const satisfies Fields<WhatsAppConversationDetail>;
export const WHATSAPP_MESSAGE_FIELDS = {
  id: R,
  seq: R,
  role: R,
  text: R,
  messageId: N,
  status: N,
  error: N,
  runId: N,
  createdAt: R,
} as const satisfies Fields<WhatsAppMessage>;
export const WHATSAPP_REDELIVERY_FIELDS = { status: R, error: N } as const satisfies Fields<WhatsAppRedelivery>;
export const FINANCE_IMPORT_FIELDS = {
  id: R,
  fileId: R,
  format: R,
  account: R,
  status: R,
  rows: R,
  imported: R,
  duplicates: R,
  errors: R,
  createdAt: R,
} as const satisfies Fields<FinanceImport>;
export const FINANCE_TRANSACTION_FIELDS = {
  id: R,
  date: R,
  description: R,
  amount: R,
  amountMinor: R,
  currency: R,
  account: R,
  categoryId: N,
  counterparty: N,
  note: N,
  importId: R,
  reconciled: R,
  reconciledFileId: N,
  createdAt: R,
} as const satisfies Fields<FinanceTransaction>;
export const FINANCE_CATEGORY_FIELDS = {
  id: R,
  name: R,
  kind: R,
  isDefault: R,
  createdAt: R,
} as const satisfies Fields<FinanceCategory>;
export const FINANCE_RULE_FIELDS = {
  id: R,
  match: R,
  categoryId: R,
  priority: R,
  createdAt: R,
} as const satisfies Fields<FinanceRule>;
export const FINANCE_APPLY_FIELDS = { examined: R, updated: R } as const satisfies Fields<FinanceApplyResult>;
export const FINANCE_SUMMARY_FIELDS = {
  groupBy: R,
  from: N,
  to: N,
  groups: R,
  totals: R,
} as const satisfies Fields<FinanceSummary>;
