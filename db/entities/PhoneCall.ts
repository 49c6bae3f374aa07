import { EntitySchema } from '@mikro-orm/core';
import { BaseEntity } from './BaseEntity';
import { keysetIndex } from './keysetIndex';
import { PhoneNumber } from './PhoneNumber';
import { Workspace } from './Workspace';

export const CALL_STATUSES = ['ringing', 'in_progress', 'completed', 'failed'] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];
export type CallDirection = 'inbound' | 'outbound';

/**
 * One call of a number (docs/api/phone.md). Its transcript and cost live in its conversation
 * (`conversationId`): the turns' messages and the runs that answered them.
 */
export class PhoneCall extends BaseEntity {
  purpose: string | null = null;
  providerCallSid: string | null = null;
  /** An outbound call's own callback URL token, sealed; '' for an inbound call. */
  callbackToken = '';
  conversationId: string | null = null;
  durationSec: number | null = null;
  error: string | null = null;
  startedAt: Date | null = null;
  endedAt: Date | null = null;

  constructor(
    public workspace: Workspace,
    public number: PhoneNumber,
    public direction: CallDirection,
    public fromNumber: string,
    public toNumber: string,
    public status: CallStatus,
  ) {
    super();
  }
}

export const PhoneCallSchema = new EntitySchema<PhoneCall, BaseEntity>({
  class: PhoneCall,
  extends: 'BaseEntity',
  tableName: 'phone_calls',
  indexes: [
    // keyset pagination newest first, all calls and one number's
    keysetIndex('phone_calls_workspace_id_created_at_index', 'phone_calls', 'workspace_id'),
    keysetIndex('phone_calls_number_id_created_at_index', 'phone_calls', 'number_id'),
    // one row per provider call, whatever the concurrency of its callbacks
    {
      name: 'phone_calls_number_sid_unique',
      expression:
        'create unique index "phone_calls_number_sid_unique" on "phone_calls" ("number_id", "provider_call_sid") where "provider_call_sid" is not null',
    },
  ],
  properties: {
    workspace: {
      kind: 'm:1',
      entity: () => Workspace,
      deleteRule: 'cascade',
      foreignKeyName: 'phone_calls_workspace_id_fkey',
    },
    number: {
      kind: 'm:1',
      entity: () => PhoneNumber,
      deleteRule: 'cascade',
      foreignKeyName: 'phone_calls_number_id_fkey',
    },
    direction: { type: 'string', length: 16 },
    fromNumber: { type: 'string', length: 64 },
    toNumber: { type: 'string', length: 64 },
    status: { type: 'string', length: 16 },
    purpose: { type: 'text', nullable: true },
    providerCallSid: { type: 'string', length: 64, nullable: true },
    callbackToken: { type: 'text', default: '' },
    conversationId: { type: 'uuid', nullable: true },
    durationSec: { type: 'integer', nullable: true },
    error: { type: 'text', nullable: true },
    startedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    endedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});
