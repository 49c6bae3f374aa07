import { EntitySchema } from '@mikro-orm/core';
import { BaseEntity } from './BaseEntity';
import { Workspace } from './Workspace';
import { Agent } from './Agent';
import { keysetIndex } from './keysetIndex';

/**
 * A WhatsApp Cloud API phone number connected to an agent (docs/api/whatsapp.md). The access token, the
 * app secret and the verify token are sealed by platform/secrets.ts; they never leave the domain layer
 * unsealed except towards the Graph API (the token) and the webhook checks (the secret, the verify token).
 * A removed account keeps its row (`deletedAt`) so its conversations stay readable.
 */
export class WhatsAppAccount extends BaseEntity {
  deletedAt: Date | null = null;
  /** The approved message template sent instead of a reply outside the 24-hour window, if any. */
  template: WhatsAppTemplate | null = null;

  constructor(
    public workspace: Workspace,
    public agent: Agent,
    public phoneNumberId: string,
    public accessTokenSealed: string,
    public appSecretSealed: string,
    public verifyTokenSealed: string,
  ) {
    super();
  }
}

/** A message template approved in Meta's WhatsApp Manager: its name and language code (`en_US`). */
export interface WhatsAppTemplate {
  name: string;
  language: string;
}

export const WhatsAppAccountSchema = new EntitySchema<WhatsAppAccount, BaseEntity>({
  class: WhatsAppAccount,
  extends: 'BaseEntity',
  tableName: 'whatsapp_accounts',
  indexes: [
    keysetIndex('whatsapp_accounts_workspace_id_created_at_index', 'whatsapp_accounts', 'workspace_id'),
    {
      name: 'whatsapp_accounts_live_phone_number_unique',
      expression:
        'create unique index "whatsapp_accounts_live_phone_number_unique" on "whatsapp_accounts" ("workspace_id", "phone_number_id") where "deleted_at" is null',
    },
  ],
  properties: {
    workspace: {
      kind: 'm:1',
      entity: () => Workspace,
      deleteRule: 'cascade',
      foreignKeyName: 'whatsapp_accounts_workspace_id_fkey',
    },
    agent: {
      kind: 'm:1',
      entity: () => Agent,
      deleteRule: 'cascade',
      foreignKeyName: 'whatsapp_accounts_agent_id_fkey',
      index: true,
    },
    phoneNumberId: { type: 'string', length: 64 },
    accessTokenSealed: { type: 'text', fieldName: 'access_token' },
    appSecretSealed: { type: 'text', fieldName: 'app_secret' },
    verifyTokenSealed: { type: 'text', fieldName: 'verify_token' },
    template: { type: 'json', nullable: true },
    deletedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});
