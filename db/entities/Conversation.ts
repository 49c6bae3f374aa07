import { EntitySchema } from '@mikro-orm/core';
import { BaseEntity } from './BaseEntity';
import { keysetIndex } from './keysetIndex';
import { Workspace } from './Workspace';

/** The ways a person talks with an agent; each differs only in its adapter (docs/api/conversations.md). */
export const CHANNELS = ['phone', 'whatsapp', 'tutor', 'agent_copilot', 'data_source_copilot'] as const;
export type Channel = (typeof CHANNELS)[number];

export type ConversationStatus = 'active' | 'ended';

/**
 * One multi-turn exchange with an agent, the read model of the workflow `conversation-<id>`
 * (docs/api/conversations.md). `channelRef` names the far end (a call, a WhatsApp contact, a data source).
 */
export class Conversation extends BaseEntity {
  channelRef: string | null = null;
  subject: string | null = null;
  status: ConversationStatus = 'active';
  endedReason: string | null = null;
  endedAt: Date | null = null;
  /** Given to the agent with every turn (the run input's `context`). */
  context: Record<string, unknown> = {};
  /** Who opened it: the key or user, for the copilots' "one active conversation per caller". */
  openedBy: string | null = null;

  constructor(
    public workspaceId: string,
    public agentId: string,
    public channel: Channel,
  ) {
    super();
  }
}

export const ConversationSchema = new EntitySchema<Conversation, BaseEntity>({
  class: Conversation,
  extends: 'BaseEntity',
  tableName: 'conversations',
  // keyset pagination newest first, per workspace
  indexes: [keysetIndex('conversations_workspace_id_created_at_index', 'conversations', 'workspace_id')],
  properties: {
    workspaceId: {
      kind: 'm:1',
      entity: () => Workspace,
      mapToPk: true,
      fieldName: 'workspace_id',
      foreignKeyName: 'conversations_workspace_id_fkey',
      deleteRule: 'cascade',
      updateRule: 'cascade',
    },
    agentId: { type: 'uuid', index: 'conversations_agent_id_index' },
    channel: { type: 'string', length: 32 },
    channelRef: { type: 'text', nullable: true },
    subject: { type: 'text', nullable: true },
    status: { type: 'string', length: 16, default: null },
    endedReason: { type: 'text', nullable: true },
    endedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    context: { type: 'json' },
    openedBy: { type: 'text', nullable: true },
  },
});
