import type { EntityManager } from '@mikro-orm/postgresql';
import { WorkflowNotFoundError } from '@temporalio/client';
import type { OutboxCall } from '../../../db/entities/OutboxEntry';
import type { Config } from '../../../platform/config';
import type { Temporal } from '../../../platform/temporal';

/** What the relay needs to make a call: Temporal and its settings. */
export interface RelayDeps {
  temporal: Temporal;
  config: Pick<Config, 'temporal'>;
}

export type OutboxKind = OutboxCall['kind'];

/** The calls of one kind. */
export type CallOf<K extends OutboxKind> = Extract<OutboxCall, { kind: K }>;

/** Makes one call; must be idempotent, since a crash before the row is marked done makes it again. */
export type OutboxHandler<K extends OutboxKind> = (
  ctx: RelayDeps & { em: EntityManager },
  call: CallOf<K>,
) => Promise<void>;

/** An area's handlers, by the kinds it owns (docs/architecture.md, "Registries"). */
export type OutboxHandlers = { [K in OutboxKind]?: OutboxHandler<K> };

/**
 * The kinds of outbox call and who makes each. The relay knows no area: each area owns its kinds and
 * the composition roots register the areas' handler tables before the first call is made.
 */
export interface OutboxRegistry {
  /** Adds an area's handlers; registering a kind again replaces its handler (every root registers the same). */
  register(handlers: OutboxHandlers): void;
  /** @throws Error when no area registered the kind: the row stays pending for the sweep */
  handlerOf<K extends OutboxKind>(kind: K): OutboxHandler<K>;
}

export function createOutboxRegistry(): OutboxRegistry {
  // Stored as handlers of any call: each is only ever given calls of its own kind (handlerOf).
  type AnyHandler = (ctx: RelayDeps & { em: EntityManager }, call: OutboxCall) => Promise<void>;
  const byKind = new Map<OutboxKind, AnyHandler>();
  return {
    register(handlers) {
      for (const kind of Object.keys(handlers) as OutboxKind[]) {
        byKind.set(kind, handlers[kind] as AnyHandler);
      }
    },
    handlerOf(kind) {
      const handler = byKind.get(kind);
      if (!handler) throw new Error(`no handler registered for outbox calls of kind ${kind}`);
      return handler;
    },
  };
}

/**
 * The process's registry. One per process because every request and sweep of the process relays
 * through it, and its content is the same table whichever root filled it.
 */
export const outboxCalls: OutboxRegistry = createOutboxRegistry();

/** A signal or cancel to a workflow that has closed has nothing left to do: the call is done. */
export async function whileOpen(fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
  }
}
