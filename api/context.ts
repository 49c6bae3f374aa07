import type { EntityManager } from '@mikro-orm/postgresql';
import type { ParameterizedContext } from 'koa';
import type { Identity } from '../domain/identity/identity';

export type { Identity };

export interface AppState {
  requestId: string;
  em: EntityManager;
  identity?: Identity;
  /** The validated request, set by the validate step of the route (handlers never read the raw body). */
  input: { body: unknown; query: unknown; params: unknown };
}

export type AppContext = ParameterizedContext<AppState>;
