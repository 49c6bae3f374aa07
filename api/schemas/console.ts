import { z } from 'zod';
import { PLANS } from '../../db/entities/Workspace';
import { ROLES } from '../../db/entities/Membership';

export const email = z
  .email()
  .max(254)
  .transform((e) => e.toLowerCase());

export const signUpBody = z.object({
  email,
  password: z.string().min(8).max(200),
  name: z.string().trim().min(1).max(200).optional(),
});

export const signInBody = z.object({ email, password: z.string().min(1).max(200) });

export const verifyEmailBody = z.object({ token: z.string().min(1).max(200) });

export const userOut = z.object({
  id: z.uuid(),
  email: z.string(),
  name: z.string().nullable(),
  emailVerified: z.boolean(),
});

export const workspaceOut = z.object({ id: z.uuid(), name: z.string(), plan: z.enum(PLANS), role: z.enum(ROLES) });

export const authOut = z.object({ user: userOut, workspace: workspaceOut });

export const meOut = z.object({ user: userOut, workspaces: z.array(workspaceOut) });
