import type { EntityManager } from '@mikro-orm/postgresql';
import type { ParameterizedContext } from 'koa';
import type { Scope } from './auth/scopes';
import type { Role } from '../db/entities/Membership';
import type { Plan } from '../db/entities/Workspace';

/** spec §2.1: the caller identity resolved per request. */
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

export interface AppState {
  requestId: string;
  em: EntityManager;
  identity?: Identity;
  /** The validated request, set by the validate step of the route (handlers never read the raw body). */
  input: { body: unknown; query: unknown; params: unknown };
}

export type AppContext = ParameterizedContext<AppState>;
