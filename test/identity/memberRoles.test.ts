import { runAdmin } from '../../scripts/admin';
import { auditLog } from '../audit/helpers';
import { addMember, createKey, signUp, type Account } from '../helpers/factories';
import { startApi, type Harness } from '../helpers/harness';
import { error, ok } from '../helpers/responses';

// Changing a member's workspace role (docs/api/identity.md#changing-a-members-role): owners only, never the
// last owner away, audited as member.role_changed.
describe('workspace member roles', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startApi();
  });
  afterAll(() => h.close());

  async function workspaceWith(role: 'admin' | 'member'): Promise<{ owner: Account; other: Account }> {
    const owner = await signUp(h);
    const other = await signUp(h);
    await addMember(h, other.userId, owner.workspaceId, role);
    return { owner, other };
  }

  const patch = (headers: Record<string, string>, userId: string, json: unknown) =>
    h.request(`/v1/workspace/members/${userId}`, { method: 'PATCH', headers, json });

  it('lets an owner promote a member, who then has the new role at once, and records it', async () => {
    const { owner, other } = await workspaceWith('member');
    const asOther = { cookie: other.cookie, 'x-workspace-id': owner.workspaceId };
    // a member may not create projects (agents:write)
    const project = { method: 'POST', headers: asOther, json: { name: 'P' } };
    await error(h.request('/v1/projects', project), 403, 'forbidden');

    const changed = await ok(patch({ cookie: owner.cookie }, other.userId, { role: 'admin' }), 200);
    expect(changed).toEqual({ userId: other.userId, email: other.email, name: null, role: 'admin' });
    await ok(h.request('/v1/projects', project), 201);

    const [entry] = await auditLog(h, { cookie: owner.cookie }, '&action=member.role_changed');
    expect(entry).toMatchObject({
      action: 'member.role_changed',
      resourceType: 'workspace',
      resourceId: owner.workspaceId,
      actor: { type: 'user', userId: owner.userId },
      details: { userId: other.userId, role: 'admin', previousRole: 'member' },
    });
    // the same role again changes nothing and records nothing
    await ok(patch({ cookie: owner.cookie }, other.userId, { role: 'admin' }), 200);
    expect(await auditLog(h, { cookie: owner.cookie }, '&action=member.role_changed')).toHaveLength(1);
    await expect(runAdmin(h.orm, ['audit:verify', owner.workspaceId])).resolves.toContain('verified');
  });

  it('is for owners (and keys with keys:manage): admins, members and other keys get 403', async () => {
    const { owner, other } = await workspaceWith('admin');
    const asAdmin = { cookie: other.cookie, 'x-workspace-id': owner.workspaceId };
    const denied = await error(patch(asAdmin, owner.userId, { role: 'member' }), 403, 'forbidden');
    expect(denied.message).toContain('admin');
    await error(patch(asAdmin, other.userId, { role: 'owner' }), 403, 'forbidden');

    const weak = await createKey(h, owner, ['runs:write', 'agents:write']);
    await error(patch({ authorization: `Bearer ${weak}` }, other.userId, { role: 'member' }), 403, 'forbidden');
    const strong = await createKey(h, owner, ['keys:manage']);
    const byKey = await ok(patch({ authorization: `Bearer ${strong}` }, other.userId, { role: 'member' }), 200);
    expect(byKey.role).toBe('member');
    const [entry] = await auditLog(h, { cookie: owner.cookie }, '&action=member.role_changed');
    expect(entry.actor.type).toBe('api_key');
  });

  it('never demotes the last owner, even when two owners demote each other at once', async () => {
    const owner = await signUp(h);
    const self = await error(patch({ cookie: owner.cookie }, owner.userId, { role: 'admin' }), 409, 'conflict');
    expect(self.message).toContain('last owner');

    const second = await signUp(h);
    await addMember(h, second.userId, owner.workspaceId, 'member');
    await ok(patch({ cookie: owner.cookie }, second.userId, { role: 'owner' }), 200);
    const asSecond = { cookie: second.cookie, 'x-workspace-id': owner.workspaceId };
    const results = await Promise.all([
      patch({ cookie: owner.cookie }, second.userId, { role: 'member' }),
      patch(asSecond, owner.userId, { role: 'member' }),
    ]);
    // one wins; the other finds itself the last owner (or, demoted already, no longer an owner)
    expect(results.map((r) => r.status).sort()).toEqual([200, expect.any(Number)]);
    expect([403, 409]).toContain(results.map((r) => r.status).sort()[1]);
    const owners = await h.orm.em
      .fork()
      .execute(`select user_id from memberships where workspace_id = ? and role = 'owner'`, [owner.workspaceId]);
    expect(owners).toHaveLength(1);
  });

  it('answers 404 for a user of another workspace and 400 for an unknown role', async () => {
    const { owner } = await workspaceWith('member');
    const stranger = await signUp(h);
    await error(patch({ cookie: owner.cookie }, stranger.userId, { role: 'admin' }), 404, 'not_found');
    await error(patch({ cookie: owner.cookie }, 'not-a-uuid', { role: 'admin' }), 404, 'not_found');
    const bad = await error(
      patch({ cookie: owner.cookie }, stranger.userId, { role: 'viewer' }),
      400,
      'validation_error',
    );
    expect(bad.details.issues[0].path).toBe('role');
  });
});
