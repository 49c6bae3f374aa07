import type { z } from 'zod';
import { pageQuery } from '../../../domain/shared/pagination';
import { listProjectMembers, putProjectMember, removeProjectMember } from '../../../domain/projects/members';
import { idParams } from '../../schemas/common';
import { memberListOut, memberOut, memberParams, putMemberBody } from '../../schemas/projects';
import { auditContext } from '../../auditContext';
import { defineRoute, type RouteDef } from '../route';

type MemberParams = z.infer<typeof memberParams>;

/** A project's members: users of the workspace with a role in it (docs/api/projects.md#members). */
export function projectMemberRoutes(): RouteDef[] {
  return [
    defineRoute<z.infer<typeof putMemberBody>, undefined, MemberParams>({
      method: 'PUT',
      path: '/v1/projects/:id/members/:userId',
      summary: 'Add a workspace user to a project, or change their role in it',
      tag: 'projects',
      access: { auth: 'any', scope: 'agents:write' },
      params: memberParams,
      body: putMemberBody,
      responses: {
        200: { description: 'The role changed', schema: memberOut },
        201: { description: 'The user was added', schema: memberOut },
      },
      async handler(ctx, { params, body }) {
        const { member, created } = await putProjectMember(
          ctx.state.em,
          ctx.state.identity!,
          params.id,
          params.userId,
          body.role,
          auditContext(ctx),
        );
        ctx.body = member;
        ctx.status = created ? 201 : 200;
      },
    }),
    defineRoute<undefined, z.infer<typeof pageQuery>, z.infer<typeof idParams>>({
      method: 'GET',
      path: '/v1/projects/:id/members',
      summary: "List a project's members, newest first",
      tag: 'projects',
      access: { auth: 'any', scope: 'agents:read' },
      params: idParams,
      query: pageQuery,
      responses: { 200: { description: 'Members', schema: memberListOut } },
      async handler(ctx, { params, query }) {
        ctx.body = await listProjectMembers(ctx.state.em, ctx.state.identity!, params.id, query);
      },
    }),
    defineRoute<undefined, undefined, MemberParams>({
      method: 'DELETE',
      path: '/v1/projects/:id/members/:userId',
      summary: 'Remove a user from a project',
      tag: 'projects',
      access: { auth: 'any', scope: 'agents:write' },
      params: memberParams,
      responses: { 204: { description: 'Removed' } },
      async handler(ctx, { params }) {
        await removeProjectMember(ctx.state.em, ctx.state.identity!, params.id, params.userId);
        ctx.status = 204;
      },
    }),
  ];
}
