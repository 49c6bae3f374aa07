import type { z } from 'zod';
import { pageQuery } from '../../../domain/shared/pagination';
import {
  createProject,
  deleteProject,
  getProject,
  listProjects,
  updateProject,
} from '../../../domain/projects/projects';
import { idParams } from '../../schemas/common';
import { createProjectBody, projectListOut, projectOut, updateProjectBody } from '../../schemas/projects';
import { defineRoute, type RouteDef } from '../route';

type IdParams = z.infer<typeof idParams>;

/** Projects: groups of a workspace's agents (docs/api/projects.md). */
export function projectRoutes(): RouteDef[] {
  return [
    defineRoute<z.infer<typeof createProjectBody>>({
      method: 'POST',
      path: '/v1/projects',
      summary: 'Create a project',
      tag: 'projects',
      access: { auth: 'any', scope: 'agents:write' },
      body: createProjectBody,
      responses: { 201: { description: 'Created', schema: projectOut } },
      async handler(ctx, { body }) {
        ctx.body = await createProject(ctx.state.em, ctx.state.identity!, body);
        ctx.status = 201;
      },
    }),
    defineRoute<undefined, z.infer<typeof pageQuery>>({
      method: 'GET',
      path: '/v1/projects',
      summary: 'List projects, newest first',
      tag: 'projects',
      access: { auth: 'any', scope: 'agents:read' },
      query: pageQuery,
      responses: { 200: { description: 'Projects', schema: projectListOut } },
      async handler(ctx, { query }) {
        ctx.body = await listProjects(ctx.state.em, ctx.state.identity!, query);
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'GET',
      path: '/v1/projects/:id',
      summary: 'Get a project',
      tag: 'projects',
      access: { auth: 'any', scope: 'agents:read' },
      params: idParams,
      responses: { 200: { description: 'The project', schema: projectOut } },
      async handler(ctx, { params }) {
        ctx.body = await getProject(ctx.state.em, ctx.state.identity!, params.id);
      },
    }),
    defineRoute<z.infer<typeof updateProjectBody>, undefined, IdParams>({
      method: 'PATCH',
      path: '/v1/projects/:id',
      summary: 'Rename a project or change its description',
      tag: 'projects',
      access: { auth: 'any', scope: 'agents:write' },
      params: idParams,
      body: updateProjectBody,
      responses: { 200: { description: 'The project', schema: projectOut } },
      async handler(ctx, { params, body }) {
        ctx.body = await updateProject(ctx.state.em, ctx.state.identity!, params.id, body);
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'DELETE',
      path: '/v1/projects/:id',
      summary: 'Delete a project and its members; its agents stay, without a project',
      tag: 'projects',
      access: { auth: 'any', scope: 'agents:write' },
      params: idParams,
      responses: { 204: { description: 'Deleted' } },
      async handler(ctx, { params }) {
        await deleteProject(ctx.state.em, ctx.state.identity!, params.id);
        ctx.status = 204;
      },
    }),
  ];
}
