import { ApiKeySchema } from './ApiKey';
import { BaseEntitySchema } from './BaseEntity';
import { LedgerEntrySchema } from './LedgerEntry';
import { MembershipSchema } from './Membership';
import { SessionSchema } from './Session';
import { UserSchema } from './User';
import { WorkspaceSchema } from './Workspace';

export * from './ApiKey';
export * from './BaseEntity';
export * from './LedgerEntry';
export * from './Membership';
export * from './Session';
export * from './User';
export * from './Workspace';

/** Every entity schema, in one list for the ORM configuration. */
export const entities = [
  BaseEntitySchema,
  UserSchema,
  WorkspaceSchema,
  MembershipSchema,
  SessionSchema,
  ApiKeySchema,
  LedgerEntrySchema,
];
