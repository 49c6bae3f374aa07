import { z } from 'zod';
import { text, trimmedText } from './text';
import { PLANS } from '../../db/entities/Workspace';
import { ROLES } from '../../db/entities/Membership';

// An address as RFC 5321 bounds it: a local part of at most 64 characters, domain labels of 1 to 63 that
// neither start nor end with `-`, 254 in all; what the document's `format: email` means, and no more.
const EMAIL =
  /^(?=[^@]{1,64}@)(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

export const email = z
  .email({ pattern: EMAIL })
  .max(254)
  .transform((e) => e.toLowerCase());

export const signUpBody = z.object({
  email,
  password: text(8, 200),
  name: trimmedText(200).optional(),
});

export const signInBody = z.object({ email, password: text(1, 200) });

export const verifyEmailBody = z.object({ token: text(1, 200) });

export const userOut = z.object({
  id: z.uuid(),
  email: z.string(),
  name: z.string().nullable(),
  emailVerified: z.boolean(),
});

export const workspaceOut = z.object({ id: z.uuid(), name: z.string(), plan: z.enum(PLANS), role: z.enum(ROLES) });

export const authOut = z.object({ user: userOut, workspace: workspaceOut });

export const meOut = z.object({ user: userOut, workspaces: z.array(workspaceOut) });
