import { EntitySchema } from '@mikro-orm/core';
import type { AnnouncedRun } from '../../workflows/activityTypes';
import type { InboundMessage } from '../../workflows/conversationMessages';
import type { ApprovalPayload } from '../../workflows/flowMessages';
import type { ApprovePayload, InputPayload, ReviewPayload } from '../../workflows/messages';
import { BaseEntity } from './BaseEntity';

/** A Temporal call that a change committed to PostgreSQL owes, described fully enough to make it later. */
export type OutboxCall =
  | { kind: 'start_run'; runId: string; workspaceId: string; agentId: string; taskQueue: string }
  | { kind: 'signal_run'; runId: string; signal: 'input'; payload: InputPayload }
  | { kind: 'signal_run'; runId: string; signal: 'approve'; payload: ApprovePayload }
  | { kind: 'signal_run'; runId: string; signal: 'review'; payload: ReviewPayload }
  | { kind: 'cancel_run'; runId: string }
  | { kind: 'announce_run'; run: AnnouncedRun; taskQueue?: string }
  | { kind: 'start_eval'; evalRunId: string; workspaceId: string; agentId: string; taskQueue: string }
  | { kind: 'start_flow'; flowRunId: string; workspaceId: string; taskQueue: string }
  | { kind: 'signal_flow'; flowRunId: string; payload: ApprovalPayload }
  | { kind: 'cancel_flow'; flowRunId: string }
  | { kind: 'sync_flow_schedule'; flowId: string; taskQueue: string }
  | {
      kind: 'start_conversation';
      conversationId: string;
      workspaceId: string;
      agentId: string;
      taskQueue: string;
      idleMs: number;
      turnsPerRun: number;
    }
  | { kind: 'signal_conversation'; conversationId: string; signal: 'inbound'; payload: InboundMessage }
  | { kind: 'signal_conversation'; conversationId: string; signal: 'end'; payload: { reason: string } };

/** The row's subject: the run, flow run or flow the call is about. */
function subjectOf(call: OutboxCall): string {
  if (call.kind === 'announce_run') return call.run.id;
  if (call.kind === 'sync_flow_schedule') return call.flowId;
  if (call.kind === 'start_eval') return call.evalRunId;
  if ('conversationId' in call) return call.conversationId;
  if ('flowRunId' in call) return call.flowRunId;
  return call.runId;
}

/**
 * One row of the transactional outbox (docs/architecture.md): written in the same transaction as the
 * change that owes the call, performed by the relay (domain/shared/outbox/relay.ts), then marked done. The
 * request that wrote it holds a short lease (`leaseUntil`) while it makes the call itself, so the
 * sweep leaves it alone meanwhile.
 */
export class OutboxEntry extends BaseEntity {
  kind: OutboxCall['kind'];
  /** The run, flow run or flow the call is about. */
  runId: string | null;
  /** One row per key: a retried request finds its first row instead of writing a second. */
  dedupeKey: string | null = null;
  leaseUntil: Date | null = null;
  doneAt: Date | null = null;
  attempts = 0;
  lastError: string | null = null;

  constructor(public call: OutboxCall) {
    super();
    this.kind = call.kind;
    this.runId = subjectOf(call);
  }
}

export const OutboxEntrySchema = new EntitySchema<OutboxEntry, BaseEntity>({
  class: OutboxEntry,
  extends: 'BaseEntity',
  tableName: 'outbox',
  // The relay reads the rows still owed, oldest first.
  indexes: [
    {
      name: 'outbox_pending_index',
      expression: 'create index "outbox_pending_index" on "outbox" ("created_at") where "done_at" is null',
    },
    // retention finds the rows done long ago (docs/operations.md#retention)
    {
      name: 'outbox_done_at_index',
      expression: 'create index "outbox_done_at_index" on "outbox" ("done_at") where "done_at" is not null',
    },
  ],
  properties: {
    kind: { type: 'string', length: 32 },
    call: { type: 'json', fieldName: 'call' },
    runId: { type: 'uuid', nullable: true, index: true },
    dedupeKey: { type: 'string', length: 255, nullable: true, unique: true },
    leaseUntil: { type: 'Date', columnType: 'timestamptz', nullable: true },
    doneAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    attempts: { type: 'integer', default: 0 },
    lastError: { type: 'text', nullable: true },
  },
});
