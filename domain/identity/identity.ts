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

/**
 * Who starts a run: a caller of the API, or a published app's public page on behalf of its workspace
 * (docs/api/apps.md), which holds no key and no session, so neither a key's spend cap nor the unverified
 * limit applies to it; the workspace's credits still do.
 */
export type RunCreator = Identity | { actor: 'app'; workspaceId: string; appId: string };
