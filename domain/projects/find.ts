import type { EntityManager } from '@mikro-orm/postgresql';
import { Project } from '../../db/entities/Project';
import { errors } from '../errors';

/**
 * Loads a project of the workspace. Throws `not_found` for any other id, another workspace's project
 * included, so ids of other workspaces cannot be probed.
 */
export async function findProject(em: EntityManager, workspaceId: string, id: string): Promise<Project> {
  const project = await em.findOne(Project, { id, workspace: workspaceId });
  if (!project) throw errors.notFound('Project');
  return project;
}

/**
 * The project a body names (`projectId`), for resources that belong to one: `null` and `undefined` pass
 * through. An id that names no project of the workspace is in the body, not the path, so it is 400
 * `validation_error` at `path` (docs/api/projects.md).
 */
export async function projectFromBody(
  em: EntityManager,
  workspaceId: string,
  projectId: string | null | undefined,
  path = 'projectId',
): Promise<Project | null | undefined> {
  if (projectId === null || projectId === undefined) return projectId;
  const project = await em.findOne(Project, { id: projectId, workspace: workspaceId });
  if (!project) throw errors.validation([{ path, message: `Unknown project ${projectId}` }]);
  return project;
}
