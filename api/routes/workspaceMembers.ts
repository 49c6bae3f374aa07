import type { z } from 'zod';
import { changeMemberRole } from '../../domain/identity/memberRoles';
import { auditContext } from '../auditContext';
import { memberRoleBody, workspaceMemberOut, workspaceMemberParams } from '../schemas/workspaceMembers';
import { defineRoute, type RouteDef } from './route';

/**
 * The workspace's members (docs/api/identity.md#changing-a-members-role). Giving roles is an owner's
 * power: owner sessions, and keys with `keys:manage`, which only an owner can mint.
 */
export function workspaceMemberRoutes(): RouteDef[] {
  return [
    defineRoute<z.infer<typeof memberRoleBody>, undefined, z.infer<typeof workspaceMemberParams>>({
      method: 'PATCH',
      path: '/v1/workspace/members/:userId',
      summary: "Change a member's role in the workspace (the last owner keeps theirs)",
      tag: 'workspace',
      access: { auth: 'any', scope: 'keys:manage', sessionRoles: ['owner'] },
      params: workspaceMemberParams,
      body: memberRoleBody,
      responses: {
        200: { description: 'The member with their role', schema: workspaceMemberOut },
        409: { description: '`conflict`: the last owner of the workspace cannot be demoted' },
      },
      async handler(ctx, { params, body }) {
        ctx.body = await changeMemberRole(
          ctx.state.em,
          ctx.state.identity!,
          params.userId,
          body.role,
          auditContext(ctx),
        );
      },
    }),
  ];
}
