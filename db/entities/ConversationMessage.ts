import { EntitySchema } from '@mikro-orm/core';
import { BaseEntity } from './BaseEntity';
import { Conversation } from './Conversation';

export type ConversationRole = 'user' | 'assistant';

/**
 * One message of a conversation, in order (`seq`, from 1). A user message carries the channel's id for
 * it (`channelMessageId`, unique in the conversation: a repeat is recognised); an assistant message
 * carries the run that produced it and the user message it answers (`replyTo`, unique: one reply each).
 */
export class ConversationMessage extends BaseEntity {
  channelMessageId: string | null = null;
  runId: string | null = null;
  /** An assistant message: the `channelMessageId` of the user message it answers. */
  replyTo: string | null = null;
  /** An assistant message of an asynchronous channel: when its adapter accepted it. */
  deliveredAt: Date | null = null;
  /**
   * A user message: the key or user who sent it through the API, on whose behalf its turn's run is made
   * (docs/api/billing.md#who-pays); null for a message from outside (phone, WhatsApp).
   */
  apiKeyId: string | null = null;
  userId: string | null = null;

  constructor(
    public conversationId: string,
    public seq: number,
    public role: ConversationRole,
    public text: string,
  ) {
    super();
  }
}

export const ConversationMessageSchema = new EntitySchema<ConversationMessage, BaseEntity>({
  class: ConversationMessage,
  extends: 'BaseEntity',
  tableName: 'conversation_messages',
  uniques: [{ properties: ['conversationId', 'seq'] }],
  indexes: [
    // retention walks the table oldest first (docs/operations.md#retention)
    {
      name: 'conversation_messages_created_at_id_index',
      expression:
        'create index "conversation_messages_created_at_id_index" on "conversation_messages" ("created_at", "id")',
    },
    {
      name: 'conversation_messages_channel_message_id_unique',
      expression:
        'create unique index "conversation_messages_channel_message_id_unique" on "conversation_messages" ("conversation_id", "channel_message_id") where "channel_message_id" is not null',
    },
    {
      name: 'conversation_messages_reply_to_unique',
      expression:
        'create unique index "conversation_messages_reply_to_unique" on "conversation_messages" ("conversation_id", "reply_to") where "reply_to" is not null',
    },
  ],
  properties: {
    conversationId: {
      kind: 'm:1',
      entity: () => Conversation,
      mapToPk: true,
      fieldName: 'conversation_id',
      foreignKeyName: 'conversation_messages_conversation_id_fkey',
      deleteRule: 'cascade',
      updateRule: 'cascade',
    },
    seq: { type: 'integer' },
    role: { type: 'string', length: 16 },
    text: { type: 'text' },
    channelMessageId: { type: 'text', nullable: true },
    runId: { type: 'uuid', nullable: true },
    replyTo: { type: 'text', nullable: true },
    deliveredAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    apiKeyId: { type: 'uuid', nullable: true },
    userId: { type: 'uuid', nullable: true },
  },
});
