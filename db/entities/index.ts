import { AgentSchema, AgentVersionSchema } from './Agent';
import { AppDomainSchema, AppSchema } from './App';
import { AppRunTokenSchema } from './AppRunToken';
import { AuditCheckpointSchema } from './AuditCheckpoint';
import { AuditEntrySchema } from './AuditEntry';
import { PhoneNumberSchema } from './PhoneNumber';
import { PhoneCallSchema } from './PhoneCall';
import { PhoneBookingSchema, PhoneCalendarSchema } from './PhoneCalendar';
import { ApiKeySchema } from './ApiKey';
import { ConversationSchema } from './Conversation';
import { ConversationMessageSchema } from './ConversationMessage';
import { EvalSchema } from './Eval';
import { EvalResultSchema, EvalRunSchema } from './EvalRun';
import { FeedbackSchema } from './Feedback';
import { ImprovementProposalSchema } from './ImprovementProposal';
import { FileSchema } from './File';
import { FlowSchema } from './Flow';
import { FlowGateAnswerSchema } from './FlowGateAnswer';
import { FlowRunSchema } from './FlowRun';
import { FolderSchema } from './Folder';
import { DataSourceSchema } from './DataSource';
import { DataSourceSheetSchema } from './DataSourceSheet';
import { KnowledgeDocumentSchema } from './KnowledgeDocument';
import { SavedTableRowSchema, SavedTableSchema } from './SavedTable';
import { RunSchema } from './Run';
import { RunStepSchema } from './RunStep';
import { RunMessageSchema } from './RunMessage';
import { LocalRunBatchSchema } from './LocalRunBatch';
import { RunArtifactSchema } from './RunArtifact';
import { RunGateAnswerSchema } from './RunGateAnswer';
import { GateAnswerSchema } from './GateAnswer';
import { RunShareSchema } from './RunShare';
import { BaseEntitySchema } from './BaseEntity';
import { LedgerEntrySchema } from './LedgerEntry';
import { MembershipSchema } from './Membership';
import { OutboxEntrySchema } from './OutboxEntry';
import { OutputConnectionSchema, OutputDeliverySchema } from './OutputConnection';
import { PriceListSchema, PricingRuleSchema } from './PriceList';
import { ProjectMemberSchema, ProjectSchema } from './Project';
import { SessionSchema } from './Session';
import { UserSchema } from './User';
import { WebhookDeliverySchema, WebhookEventRecordSchema, WebhookSubscriptionSchema } from './Webhook';
import { WorkspaceSchema } from './Workspace';
import { WhatsAppAccountSchema } from './WhatsAppAccount';
import { WhatsAppConversationSchema } from './WhatsAppConversation';
import { WhatsAppReplySchema } from './WhatsAppReply';
import { FinanceCategorySchema } from './FinanceCategory';
import { FinanceImportSchema } from './FinanceImport';
import { FinanceRuleSchema } from './FinanceRule';
import { FinanceRunSchema } from './FinanceRun';
import { FinanceTransactionSchema } from './FinanceTransaction';

export * from './Agent';
export * from './App';
export * from './AppRunToken';
export * from './AuditCheckpoint';
export * from './AuditEntry';
export * from './PhoneNumber';
export * from './PhoneCall';
export * from './PhoneCalendar';
export * from './ApiKey';
export * from './Conversation';
export * from './ConversationMessage';
export * from './Eval';
export * from './EvalRun';
export * from './Feedback';
export * from './ImprovementProposal';
export * from './File';
export * from './Flow';
export * from './FlowGateAnswer';
export * from './FlowRun';
export * from './Folder';
export * from './KnowledgeDocument';
export * from './Run';
export * from './RunStep';
export * from './RunMessage';
export * from './RunShare';
export * from './BaseEntity';
export * from './WhatsAppAccount';
export * from './WhatsAppConversation';
export * from './WhatsAppReply';
export * from './LedgerEntry';
export * from './Membership';
export * from './OutboxEntry';
export * from './OutputConnection';
export * from './PriceList';
export * from './Project';
export * from './Session';
export * from './User';
export * from './DataSource';
export * from './DataSourceSheet';
export * from './SavedTable';
export * from './Webhook';
export * from './Workspace';

/** Every entity schema, in one list for the ORM configuration. */
export const entities = [
  BaseEntitySchema,
  UserSchema,
  WorkspaceSchema,
  MembershipSchema,
  SessionSchema,
  ApiKeySchema,
  LedgerEntrySchema,
  AgentSchema,
  AgentVersionSchema,
  RunSchema,
  RunStepSchema,
  RunMessageSchema,
  FeedbackSchema,
  WebhookSubscriptionSchema,
  WebhookEventRecordSchema,
  WebhookDeliverySchema,
  FolderSchema,
  FileSchema,
  OutboxEntrySchema,
  ProjectSchema,
  ProjectMemberSchema,
  FlowSchema,
  FlowGateAnswerSchema,
  FlowRunSchema,
  PriceListSchema,
  PricingRuleSchema,
  KnowledgeDocumentSchema,
  DataSourceSchema,
  DataSourceSheetSchema,
  SavedTableSchema,
  SavedTableRowSchema,
  EvalSchema,
  EvalRunSchema,
  EvalResultSchema,
  ImprovementProposalSchema,
  OutputConnectionSchema,
  OutputDeliverySchema,
  RunShareSchema,
  LocalRunBatchSchema,
  AuditCheckpointSchema,
  AuditEntrySchema,
  RunArtifactSchema,
  RunGateAnswerSchema,
  GateAnswerSchema,
  AppSchema,
  AppDomainSchema,
  AppRunTokenSchema,
  PhoneNumberSchema,
  PhoneCallSchema,
  PhoneCalendarSchema,
  PhoneBookingSchema,
  WhatsAppAccountSchema,
  WhatsAppConversationSchema,
  WhatsAppReplySchema,
  ConversationSchema,
  ConversationMessageSchema,
  FinanceCategorySchema,
  FinanceImportSchema,
  FinanceRuleSchema,
  FinanceTransactionSchema,
  FinanceRunSchema,
];
