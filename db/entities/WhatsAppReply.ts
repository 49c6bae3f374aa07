import { EntitySchema } from '@mikro-orm/core';

/**
 * A reply the Graph API accepted, by conversation and reply number: the Graph API takes no idempotency key,
 * so a retried send looks here first and never posts the same reply twice once it was accepted.
 */
export class WhatsAppReply {
  createdAt: Date = new Date();
  /** `sent` once the Graph API took it; Meta's status webhooks move it on (docs/api/whatsapp.md#reply-status). */
  status: ReplyStatus = 'sent';
  /** Why it failed, when it did. */
  error: string | null = null;
  updatedAt: Date | null = null;

  constructor(
    public conversationId: string,
    public replySeq: number,
    /** The message id (`wamid.…`) the Graph API answered with. */
    public messageId: string | null,
  ) {}
}

export const REPLY_STATUSES = ['sent', 'delivered', 'read', 'failed'] as const;
export type ReplyStatus = (typeof REPLY_STATUSES)[number];

export const WhatsAppReplySchema = new EntitySchema<WhatsAppReply>({
  class: WhatsAppReply,
  tableName: 'whatsapp_replies',
  indexes: [{ name: 'whatsapp_replies_message_id_index', properties: ['messageId'] }],
  properties: {
    conversationId: { type: 'uuid', primary: true },
    replySeq: { type: 'integer', primary: true },
    messageId: { type: 'string', length: 255, nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    status: { type: 'string', length: 16, default: 'sent' },
    error: { type: 'text', nullable: true },
    updatedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});
