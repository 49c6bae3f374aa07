import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../platform/config';
import type { Temporal } from '../../platform/temporal';

/**
 * What the API side of the engine needs: the request's entity manager, the Temporal client (through
 * the outbox for starts and signals) and the settings of the task queue and of conversations.
 */
export interface ConversationDeps {
  em: EntityManager;
  temporal: Temporal;
  config: Pick<Config, 'temporal' | 'conversations'>;
}
