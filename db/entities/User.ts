import { EntitySchema } from '@mikro-orm/core';
import { BaseEntity } from './BaseEntity';

/** A console user. E-mail is stored lowercased; the password only as an argon2id hash. */
export class User extends BaseEntity {
  name: string | null;
  emailVerifiedAt: Date | null = null;
  /** SHA-256 of the one-time verification token the mailer sent. */
  emailVerifyTokenHash: string | null = null;

  constructor(
    public email: string,
    public passwordHash: string,
    name?: string | null,
  ) {
    super();
    this.name = name ?? null;
  }
}

export const UserSchema = new EntitySchema<User, BaseEntity>({
  class: User,
  extends: 'BaseEntity',
  tableName: 'users',
  properties: {
    email: { type: 'string', unique: true },
    passwordHash: { type: 'string', hidden: true },
    name: { type: 'string', nullable: true },
    emailVerifiedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    emailVerifyTokenHash: { type: 'string', nullable: true, index: true, hidden: true },
  },
});
