import { ArrayType, BigIntType, EntitySchema } from '@mikro-orm/core';
import { BaseEntity } from './BaseEntity';
import { Workspace } from './Workspace';

/** A workspace API key. Only the SHA-256 of the plaintext is stored; the plaintext is shown once, at creation. */
export class ApiKey extends BaseEntity {
  monthlySpendCapMicros: number | null = null;
  revokedAt: Date | null = null;
  lastUsedAt: Date | null = null;
  /** The person who made the key (a session's user, or the maker of the key that made it); null when unknown. */
  createdByUserId: string | null = null;

  constructor(
    public workspace: Workspace,
    public name: string,
    public scopes: string[],
    public keyHash: string,
    /** First 12 characters of the plaintext, so people can tell keys apart. */
    public prefix: string,
  ) {
    super();
  }
}

export const ApiKeySchema = new EntitySchema<ApiKey, BaseEntity>({
  class: ApiKey,
  extends: 'BaseEntity',
  tableName: 'api_keys',
  indexes: [{ properties: ['workspace', 'createdAt'] }],
  properties: {
    workspace: {
      kind: 'm:1',
      entity: () => Workspace,
      deleteRule: 'cascade',
      foreignKeyName: 'api_keys_workspace_id_fkey',
    },
    name: { type: 'string' },
    scopes: { type: ArrayType, columnType: 'text[]' },
    keyHash: { type: 'string', unique: true, hidden: true },
    prefix: { type: 'string' },
    monthlySpendCapMicros: { type: new BigIntType('number'), nullable: true },
    revokedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    lastUsedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    createdByUserId: { type: 'uuid', nullable: true },
  },
});
