import { EntitySchema } from '@mikro-orm/core';

/**
 * A reply the Graph API accepted, by conversation and reply number: the Graph API takes no idempotency key,
 * so a retried send looks here first and never posts the same reply twice once it was accepted.
 */
export class WhatsAppReply {
  createdAt: Date = new Date();

  constructor(
    public conversationId: string,
    public replySeq: number,
    /** The message id (`wamid.…`) the Graph API answered with. */
    public messageId: string | null,
  ) {}
}

export const WhatsAppReplySchema = new EntitySchema<WhatsAppReply>({
  class: WhatsAppReply,
  tableName: 'whatsapp_replies',
  properties: {
    conversationId: { type: 'uuid', primary: true },
    replySeq: { type: 'integer', primary: true },
    messageId: { type: 'string', length: 255, nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
