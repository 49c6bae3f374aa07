import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Identity } from '../identity/identity';

/** Who answered a gate, as a run's report names them (docs/api/runs.md#report). */
export type GateAnswerer =
  | { type: 'user'; id: string; name: string | null }
  | { type: 'api_key'; id: string; name: string | null };

/**
 * Keeps who answered the gate whose action `actionId` an answer just claimed. An answer whose claim is
 * given back (Temporal did not take it in time) leaves its row; the next accepted answer to the same
 * action replaces it, so the row always names the caller whose answer stands.
 */
export async function recordGateAnswerer(
  em: EntityManager,
  runId: string,
  actionId: string,
  identity: Identity,
): Promise<void> {
  const [userId, keyId] = identity.actor === 'session' ? [identity.userId, null] : [null, identity.keyId];
  await em.getConnection().execute(
    `insert into run_gate_answers (id, created_at, updated_at, run_id, action_id, actor, user_id, key_id)
     values (?, now(), now(), ?, ?, ?, ?, ?)
     on conflict (run_id, action_id) do update set
       created_at = excluded.created_at, updated_at = excluded.updated_at,
       actor = excluded.actor, user_id = excluded.user_id, key_id = excluded.key_id`,
    [randomUUID(), runId, actionId, identity.actor, userId, keyId],
  );
}

interface Row {
  action_id: string;
  actor: 'session' | 'api_key';
  user_id: string | null;
  key_id: string | null;
  user_name: string | null;
  key_name: string | null;
  created_at: Date;
}

/**
 * Who answered each of a run's gates and when, by action id. A user is named by their name, else their
 * e-mail; a key by its name. Users and keys that are gone keep their id, with no name.
 */
export async function gateAnswerers(
  em: EntityManager,
  runId: string,
): Promise<Map<string, { by: GateAnswerer; at: string }>> {
  const rows = await em.getConnection().execute<Row[]>(
    `select g.action_id, g.actor, g.user_id, g.key_id, coalesce(u.name, u.email) as user_name,
            k.name as key_name, g.created_at
     from run_gate_answers g
     left join users u on u.id = g.user_id
     left join api_keys k on k.id = g.key_id
     where g.run_id = ?`,
    [runId],
  );
  return new Map(
    rows.map((r) => [
      r.action_id,
      {
        by:
          r.actor === 'session'
            ? { type: 'user' as const, id: r.user_id!, name: r.user_name }
            : { type: 'api_key' as const, id: r.key_id!, name: r.key_name },
        at: new Date(r.created_at).toISOString(),
      },
    ]),
  );
}
