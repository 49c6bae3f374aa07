import type { EntityManager } from '@mikro-orm/postgresql';
import type { Run } from '../../db/entities/Run';
import type { Approvers } from '../../workflows/approvalPolicy';
import type { PolicyProgress } from '../../workflows/messages';

/**
 * Who the people of an approval gate are (docs/api/runs.md#approval-policies): the approvers a policy
 * names (by role or by id, widened by `escalateTo` once the gate escalated), the person who started the
 * run, and the person an answer counts as. A key counts as the user who made it; a key nobody is known to
 * have made (the operator CLI's) counts as itself, so it can never be one of the approvers.
 */

/** Who answers: a session's user, an API key, or the user of a one-click link. */
export type Answerer =
  { actor: 'session'; workspaceId: string; userId: string } | { actor: 'api_key'; workspaceId: string; keyId: string };

export interface Person {
  userId: string | null;
  keyId: string | null;
}

/** A gate under a policy as far as who may answer it goes: a run's approval gate, or a flow's approval step. */
type Gate = Pick<PolicyProgress, 'policy' | 'escalated'>;

async function makerOfKey(em: EntityManager, keyId: string): Promise<string | null> {
  const [row] = await em.execute<Array<{ maker: string | null }>>(
    'select created_by_user_id as maker from api_keys where id = ?',
    [keyId],
  );
  return row?.maker ?? null;
}

/** The person an answer by `who` counts as. */
export async function personOf(em: EntityManager, who: Answerer): Promise<Person> {
  if (who.actor === 'session') return { userId: who.userId, keyId: null };
  return { userId: await makerOfKey(em, who.keyId), keyId: who.keyId };
}

/** The person who started `run`: its session user, or the key that started it and that key's maker. */
export async function starterOf(em: EntityManager, run: Pick<Run, 'userId' | 'apiKeyId'>): Promise<Person> {
  if (run.userId) return { userId: run.userId, keyId: null };
  if (run.apiKeyId) return { userId: await makerOfKey(em, run.apiKeyId), keyId: run.apiKeyId };
  return { userId: null, keyId: null };
}

/** The approvers of `gate` as it stands: the policy's, and `escalateTo`'s too once it escalated. */
export function approversOf(gate: Gate): Approvers[] {
  const sets = [gate.policy.approvers];
  if (gate.escalated && gate.policy.escalateTo) sets.push(gate.policy.escalateTo);
  return sets;
}

/** Whether `person` is one of the approvers of `gate` (a member of the workspace with a named role, or named). */
export async function isEligible(em: EntityManager, workspaceId: string, gate: Gate, person: Person): Promise<boolean> {
  if (!person.userId) return false;
  const ids = eligibleUserIds(em, workspaceId, approversOf(gate));
  return (await ids).includes(person.userId);
}

/** The members of the workspace whom `sets` name, by role or by id, with their e-mail addresses. */
export async function eligibleMembers(
  em: EntityManager,
  workspaceId: string,
  sets: Approvers[],
): Promise<Array<{ userId: string; email: string }>> {
  const roles = [...new Set(sets.flatMap((s) => s.roles ?? []))];
  const ids = [...new Set(sets.flatMap((s) => s.userIds ?? []))];
  if (!roles.length && !ids.length) return [];
  return em.execute<Array<{ userId: string; email: string }>>(
    `select u.id as "userId", u.email from memberships m join users u on u.id = m.user_id
      where m.workspace_id = ? and (m.role = any(?::text[]) or u.id = any(?::uuid[]))
      order by u.email`,
    [workspaceId, `{${roles.join(',')}}`, `{${ids.join(',')}}`],
  );
}

async function eligibleUserIds(em: EntityManager, workspaceId: string, sets: Approvers[]): Promise<string[]> {
  return (await eligibleMembers(em, workspaceId, sets)).map((m) => m.userId);
}
