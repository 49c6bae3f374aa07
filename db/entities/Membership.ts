import { EntitySchema } from '@mikro-orm/core';
import { BaseEntity } from './BaseEntity';
import { User } from './User';
import { Workspace } from './Workspace';

export const ROLES = ['owner', 'admin', 'member'] as const;
export type Role = (typeof ROLES)[number];

/** A user's role in one workspace (owner, admin or member; docs/api/identity.md#roles-session-callers). */
export class Membership extends BaseEntity {
  constructor(
    public user: User,
    public workspace: Workspace,
    public role: Role,
  ) {
    super();
  }
}

export const MembershipSchema = new EntitySchema<Membership, BaseEntity>({
  class: Membership,
  extends: 'BaseEntity',
  tableName: 'memberships',
  uniques: [{ properties: ['user', 'workspace'] }],
  properties: {
    user: { kind: 'm:1', entity: () => User, deleteRule: 'cascade', foreignKeyName: 'memberships_user_id_fkey' },
    workspace: {
      kind: 'm:1',
      entity: () => Workspace,
      deleteRule: 'cascade',
      foreignKeyName: 'memberships_workspace_id_fkey',
      index: true,
    },
    role: { type: 'string' },
  },
});
