import { z } from 'zod';
import { uuid } from './common';

const name = z.string().trim().min(1).max(200);
const description = z.string().max(10_000).nullable();

export const createProjectBody = z.strictObject({ name, description: description.optional() });

export const updateProjectBody = z
  .strictObject({ name: name.optional(), description: description.optional() })
  .refine((b) => Object.keys(b).length > 0, 'Nothing to update')
  .meta({ minProperties: 1 });

export const memberParams = z.strictObject({ id: uuid, userId: uuid });

export const putMemberBody = z.strictObject({ role: z.enum(['viewer', 'editor']) });

export const projectOut = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

export const projectListOut = z.object({ projects: z.array(projectOut), nextCursor: z.string().nullable() });

export const memberOut = z.object({
  projectId: z.uuid(),
  userId: z.uuid(),
  role: z.enum(['viewer', 'editor']),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

export const memberListOut = z.object({ members: z.array(memberOut), nextCursor: z.string().nullable() });
