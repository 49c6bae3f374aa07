import type { EntityManager } from '@mikro-orm/postgresql';
import type { Role } from '../../db/entities/Membership';
import type { AuditContext } from '../audit/context';
import { recordAudit } from '../audit/record';
import { errors } from '../errors';
import type { Identity } from './identity';

/** A member of the workspace as the role route shows it. */
export interface WorkspaceMemberView {
  userId: string;
  email: string;
  name: string | null;
  role: Role;
}

/**
 * Changes the workspace role of `userId` (docs/api/identity.md#changing-a-members-role). Every membership
 * of the workspace is locked first, so two owners demoting each other at once take turns and the second
 * sees the first's change: the workspace never loses its last owner. A change is recorded in the audit log
 * as `member.role_changed`; the same role again changes nothing and records nothing.
 * Throws `not_found` for a user who is not a member of the workspace, `conflict` for demoting the last owner.
 */
export async function changeMemberRole(
  em: EntityManager,
  identity: Identity,
  userId: string,
  role: Role,
  audit: AuditContext,
): Promise<WorkspaceMemberView> {
  return em.transactional(async (tx) => {
    const members = await tx.execute<Array<{ userId: string; email: string; name: string | null; role: Role }>>(
      `select m.user_id as "userId", u.email, u.name, m.role from memberships m join users u on u.id = m.user_id
        where m.workspace_id = ? order by m.id for update of m`,
      [identity.workspaceId],
    );
    const member = members.find((m) => m.userId === userId);
    if (!member) throw errors.notFound('Member');
    if (member.role === role) return member;
    const owners = members.filter((m) => m.role === 'owner').length;
    if (member.role === 'owner' && owners === 1) {
      throw errors.conflict('The last owner of the workspace cannot be given another role', { owners });
    }
    await tx.execute('update memberships set role = ?, updated_at = ? where workspace_id = ? and user_id = ?', [
      role,
      new Date(),
      identity.workspaceId,
      userId,
    ]);
    await recordAudit(tx, audit, {
      action: 'member.role_changed',
      resourceType: 'workspace',
      resourceId: identity.workspaceId,
      details: { userId, role, previousRole: member.role },
    });
    return { ...member, role };
  });
}
