import { EntitySchema } from '@mikro-orm/core';
import { keysetIndex } from './keysetIndex';
import { WhatsAppAccount } from './WhatsAppAccount';

/**
 * Which account and contact a WhatsApp conversation belongs to: the conversation itself (status, messages) is
 * the engine's (`conversations`, docs/api/whatsapp.md); its id is this row's id. One account may talk to a
 * contact (`waId`) over several conversations in turn, one active at a time.
 */
export class WhatsAppConversation {
  createdAt: Date = new Date();

  constructor(
    /** The conversation's id. */
    public id: string,
    public workspaceId: string,
    public account: WhatsAppAccount,
    public waId: string,
  ) {}
}

export const WhatsAppConversationSchema = new EntitySchema<WhatsAppConversation>({
  class: WhatsAppConversation,
  tableName: 'whatsapp_conversations',
  indexes: [
    keysetIndex('whatsapp_conversations_workspace_id_created_at_index', 'whatsapp_conversations', 'workspace_id'),
    keysetIndex('whatsapp_conversations_account_id_created_at_index', 'whatsapp_conversations', 'account_id'),
    { name: 'whatsapp_conversations_account_id_wa_id_index', properties: ['account', 'waId'] },
  ],
  properties: {
    id: { type: 'uuid', primary: true },
    createdAt: { type: 'Date', columnType: 'timestamptz(3)' },
    workspaceId: { type: 'uuid' },
    account: {
      kind: 'm:1',
      entity: () => WhatsAppAccount,
      deleteRule: 'cascade',
      foreignKeyName: 'whatsapp_conversations_account_id_fkey',
    },
    waId: { type: 'string', length: 64 },
  },
});
