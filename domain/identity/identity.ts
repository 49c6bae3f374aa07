import type { Role } from '../../db/entities/Membership';
import type { Plan } from '../../db/entities/Workspace';
import type { Scope } from './scopes';

/** The caller identity resolved per request (docs/api/identity.md). */
export type Identity =
  | { actor: 'api_key'; workspaceId: string; keyId: string; scopes: Scope[]; plan: Plan }
  | {
      actor: 'session';
      userId: string;
      workspaceId: string;
      role: Role;
      sessionId: string;
      emailVerified: boolean;
      plan: Plan;
    };
