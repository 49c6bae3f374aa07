import { EntitySchema } from '@mikro-orm/core';
import { BaseEntity } from './BaseEntity';
import { keysetIndex } from './keysetIndex';
import { User } from './User';
import { Workspace } from './Workspace';

/** A project groups a workspace's agents (docs/api/projects.md). */
export class Project extends BaseEntity {
  constructor(
    public workspace: Workspace,
    public name: string,
    public description: string | null = null,
  ) {
    super();
  }
}

export const PROJECT_ROLES = ['viewer', 'editor'] as const;
export type ProjectRole = (typeof PROJECT_ROLES)[number];

/** A workspace user's role in one project. */
export class ProjectMember extends BaseEntity {
  constructor(
    public project: Project,
    public user: User,
    public role: ProjectRole,
  ) {
    super();
  }
}

export const ProjectSchema = new EntitySchema<Project, BaseEntity>({
  class: Project,
  extends: 'BaseEntity',
  tableName: 'projects',
  // keyset pagination newest first
  indexes: [keysetIndex('projects_workspace_id_created_at_index', 'projects', 'workspace_id')],
  properties: {
    workspace: {
      kind: 'm:1',
      entity: () => Workspace,
      deleteRule: 'cascade',
      foreignKeyName: 'projects_workspace_id_fkey',
    },
    name: { type: 'string' },
    description: { type: 'text', nullable: true },
  },
});

export const ProjectMemberSchema = new EntitySchema<ProjectMember, BaseEntity>({
  class: ProjectMember,
  extends: 'BaseEntity',
  tableName: 'project_members',
  uniques: [{ properties: ['project', 'user'] }],
  // keyset pagination newest first within the project
  indexes: [keysetIndex('project_members_project_id_created_at_index', 'project_members', 'project_id')],
  properties: {
    project: {
      kind: 'm:1',
      entity: () => Project,
      deleteRule: 'cascade',
      foreignKeyName: 'project_members_project_id_fkey',
    },
    user: {
      kind: 'm:1',
      entity: () => User,
      deleteRule: 'cascade',
      foreignKeyName: 'project_members_user_id_fkey',
      index: true,
    },
    role: { type: 'string', length: 16 },
  },
});
