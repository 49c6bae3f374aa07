import { EntitySchema } from '@mikro-orm/core';
import { BaseEntity } from './BaseEntity';
import { User } from './User';

/** A console session. Only the SHA-256 of the cookie token is stored; the token lasts `SVC_SESSION_DAYS`. */
export class Session extends BaseEntity {
  constructor(
    public user: User,
    public tokenHash: string,
    public expiresAt: Date,
  ) {
    super();
  }
}

export const SessionSchema = new EntitySchema<Session, BaseEntity>({
  class: Session,
  extends: 'BaseEntity',
  tableName: 'sessions',
  properties: {
    user: {
      kind: 'm:1',
      entity: () => User,
      deleteRule: 'cascade',
      foreignKeyName: 'sessions_user_id_fkey',
      index: true,
    },
    tokenHash: { type: 'string', unique: true, hidden: true },
    expiresAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
