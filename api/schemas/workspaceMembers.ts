import { z } from 'zod';
import { ROLES } from '../../db/entities/Membership';
import { uuid } from './common';

export const workspaceMemberParams = z.strictObject({ userId: uuid });

/** `PATCH /v1/workspace/members/{userId}`: the member's new role in the workspace. */
export const memberRoleBody = z.strictObject({ role: z.enum(ROLES) });

export const workspaceMemberOut = z.object({
  userId: z.uuid(),
  email: z.string(),
  name: z.string().nullable(),
  role: z.enum(ROLES),
});
