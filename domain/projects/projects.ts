import type { EntityManager } from '@mikro-orm/postgresql';
import { Project } from '../../db/entities/Project';
import { Workspace } from '../../db/entities/Workspace';
import type { Identity } from '../identity/identity';
import { findPage } from '../shared/pagination';
import { findProject } from './find';
import { presentProject, type ProjectView } from './presenters';

/** Creates a project in the caller's workspace. */
export async function createProject(
  em: EntityManager,
  identity: Identity,
  input: { name: string; description?: string | null },
): Promise<ProjectView> {
  const project = new Project(em.getReference(Workspace, identity.workspaceId), input.name, input.description ?? null);
  await em.persist(project).flush();
  return presentProject(project);
}

/** One page of the workspace's projects, newest first. Throws `validation_error` for a malformed cursor. */
export async function listProjects(
  em: EntityManager,
  identity: Identity,
  page: { limit: number; cursor?: string },
): Promise<{ projects: ProjectView[]; nextCursor: string | null }> {
  const { items, nextCursor } = await findPage(em, Project, { workspace: identity.workspaceId }, page);
  return { projects: items.map(presentProject), nextCursor };
}

/** A project of the workspace. Throws `not_found`. */
export async function getProject(em: EntityManager, identity: Identity, id: string): Promise<ProjectView> {
  return presentProject(await findProject(em, identity.workspaceId, id));
}

/** Renames a project or changes its description (`null` clears it). Throws `not_found`. */
export async function updateProject(
  em: EntityManager,
  identity: Identity,
  id: string,
  input: { name?: string; description?: string | null },
): Promise<ProjectView> {
  const project = await findProject(em, identity.workspaceId, id);
  if (input.name !== undefined) project.name = input.name;
  if (input.description !== undefined) project.description = input.description;
  project.updatedAt = new Date();
  await em.flush();
  return presentProject(project);
}

/**
 * Deletes a project and its member list. Its agents stay in the workspace without a project: the
 * foreign key sets their `projectId` to null in the same statement (docs/api/projects.md).
 * Throws `not_found`.
 */
export async function deleteProject(em: EntityManager, identity: Identity, id: string): Promise<void> {
  const project = await findProject(em, identity.workspaceId, id);
  await em.nativeDelete(Project, { id: project.id });
}
