import type { EntityManager, AbstractSqlConnection } from '@mikro-orm/postgresql';
import type { ParameterizedContext } from 'koa';
import type { Identity } from '../domain/identity/identity';

export type { Identity };

export interface AppState {
  requestId: string;
  /** This request's EntityManager, forked on first use (api/app.ts). */
  em: EntityManager;
  /**
   * The shared connection, for single statements that need no entity, unit of work or transaction:
   * using it forks nothing, so a route that reads only through it costs no EntityManager.
   */
  db: AbstractSqlConnection;
  identity?: Identity;
  /** The validated request, set by the validate step of the route (handlers never read the raw body). */
  input: { body: unknown; query: unknown; params: unknown };
}

export type AppContext = ParameterizedContext<AppState>;
