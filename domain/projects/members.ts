import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Membership } from '../../db/entities/Membership';
import { ProjectMember, type ProjectRole } from '../../db/entities/Project';
import { errors } from '../errors';
import type { Identity } from '../identity/identity';
import { findPage } from '../shared/pagination';
import type { AuditContext } from '../audit/context';
import { recordAudit } from '../audit/record';
import { findProject } from './find';
import { presentMember, type ProjectMemberView } from './presenters';

/**
 * Adds a user of the workspace to a project with a role, or changes the role of one already in it, in
 * one statement (`insert … on conflict`), so concurrent calls for the same user leave one row.
 * `created` tells the two apart. Throws `not_found` for an unknown project, and for a user who is not a
 * member of the workspace (an unknown user and another workspace's user look alike; docs/api/projects.md).
 * Recorded in the audit log as `project_member.role_changed` (the role given, and the one before if any).
 */
export async function putProjectMember(
  em: EntityManager,
  identity: Identity,
  projectId: string,
  userId: string,
  role: ProjectRole,
  audit: AuditContext,
): Promise<{ member: ProjectMemberView; created: boolean }> {
  const project = await findProject(em, identity.workspaceId, projectId);
  const inWorkspace = await em.count(Membership, { user: userId, workspace: identity.workspaceId });
  if (!inWorkspace) throw errors.notFound('User');
  const now = new Date();
  const row = await em.transactional(async (tx) => {
    const [before] = await tx.execute<Array<{ role: string }>>(
      'select role from project_members where project_id = ? and user_id = ? for update',
      [project.id, userId],
    );
    const [upserted] = await tx.execute<Array<{ id: string; inserted: boolean }>>(
      `insert into project_members (id, created_at, updated_at, project_id, user_id, role) values (?, ?, ?, ?, ?, ?)
       on conflict (project_id, user_id) do update set role = excluded.role, updated_at = excluded.updated_at
       returning id, (xmax = 0) as inserted`,
      [randomUUID(), now, now, project.id, userId, role],
    );
    await recordAudit(tx, audit, {
      action: 'project_member.role_changed',
      resourceType: 'project',
      resourceId: project.id,
      details: { userId, role, previousRole: before?.role ?? null },
    });
    return upserted;
  });
  const member = await em.findOneOrFail(ProjectMember, row.id, { refresh: true });
  return { member: presentMember(member), created: row.inserted };
}

/** One page of a project's members, newest first. Throws `not_found`, or `validation_error` for a malformed cursor. */
export async function listProjectMembers(
  em: EntityManager,
  identity: Identity,
  projectId: string,
  page: { limit: number; cursor?: string },
): Promise<{ members: ProjectMemberView[]; nextCursor: string | null }> {
  const project = await findProject(em, identity.workspaceId, projectId);
  const { items, nextCursor } = await findPage(em, ProjectMember, { project: project.id }, page);
  return { members: items.map(presentMember), nextCursor };
}

/** Removes a user from a project. Throws `not_found` for an unknown project or a user not in it. */
export async function removeProjectMember(
  em: EntityManager,
  identity: Identity,
  projectId: string,
  userId: string,
): Promise<void> {
  const project = await findProject(em, identity.workspaceId, projectId);
  const removed = await em.nativeDelete(ProjectMember, { project: project.id, user: userId });
  if (!removed) throw errors.notFound('Project member');
}
