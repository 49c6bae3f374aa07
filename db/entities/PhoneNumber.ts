import { EntitySchema } from '@mikro-orm/core';
import { Agent } from './Agent';
import { BaseEntity } from './BaseEntity';
import { keysetIndex } from './keysetIndex';
import { Workspace } from './Workspace';

/**
 * A phone number answered by an agent (docs/api/phone.md). `credentials` (the Twilio account, whose Auth
 * Token signs the callbacks) are sealed (platform/secrets.ts); `callbackTokenHash` is the SHA-256 of the
 * secret part of its callback URL, which is shown once. A removed number keeps its row (`deletedAt`) so its
 * calls stay readable.
 */
export class PhoneNumber extends BaseEntity {
  deletedAt: Date | null = null;

  constructor(
    public workspace: Workspace,
    public agent: Agent,
    public e164: string,
    public provider: 'twilio',
    public credentials: string,
    public callbackTokenHash: string,
  ) {
    super();
  }
}

export const PhoneNumberSchema = new EntitySchema<PhoneNumber, BaseEntity>({
  class: PhoneNumber,
  extends: 'BaseEntity',
  tableName: 'phone_numbers',
  indexes: [
    // keyset pagination newest first
    keysetIndex('phone_numbers_workspace_id_created_at_index', 'phone_numbers', 'workspace_id'),
    // a number belongs to one workspace at a time; a removed one is free again
    {
      name: 'phone_numbers_e164_unique',
      expression:
        'create unique index "phone_numbers_e164_unique" on "phone_numbers" ("e164") where "deleted_at" is null',
    },
  ],
  properties: {
    workspace: {
      kind: 'm:1',
      entity: () => Workspace,
      deleteRule: 'cascade',
      foreignKeyName: 'phone_numbers_workspace_id_fkey',
    },
    agent: {
      kind: 'm:1',
      entity: () => Agent,
      deleteRule: 'cascade',
      foreignKeyName: 'phone_numbers_agent_id_fkey',
    },
    e164: { type: 'string', length: 32 },
    provider: { type: 'string', length: 16 },
    credentials: { type: 'text' },
    callbackTokenHash: { type: 'string', length: 64 },
    deletedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});
