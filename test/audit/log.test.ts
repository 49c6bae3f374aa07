import { runAdmin } from '../../scripts/admin';
import { startApi, type Harness } from '../helpers/harness';
import { addMember, bearer, createKey, signUp, type Account } from '../helpers/factories';
import { error, ok } from '../helpers/responses';
import { auditLog, traced, type Headers } from './helpers';

interface Expected {
  action: string;
  resourceType: string;
  resourceId: string;
  actor: Record<string, string>;
  userAgent: string | null;
  requestId: string | null;
}

// The audit log (docs/api/audit.md): what each sensitive write records, who may read it, and its pages.
describe('audit log', () => {
  let h: Harness;
  let owner: Account;
  let session: Headers;
  let keyAuth: Headers;
  let keyId: string;
  beforeAll(async () => {
    h = await startApi({ allowPrivateWebhooks: true });
    owner = await signUp(h);
    session = { cookie: owner.cookie };
    const created = await ok(
      h.request('/v1/api-keys', {
        method: 'POST',
        headers: session,
        json: { name: 'auditor', scopes: ['keys:manage', 'webhooks:manage', 'agents:write', 'apps:manage'] },
      }),
      201,
    );
    keyAuth = bearer(created.key);
    keyId = created.id;
  });
  afterAll(() => h.close());

  it('records each sensitive write with its actor, IP, user agent and request id, newest first', async () => {
    const expected: Expected[] = [];
    const user = { type: 'user', userId: owner.userId };
    const key = { type: 'api_key', keyId };
    /** Makes one traced request and notes the entry it must leave; returns the answer's body. */
    const step = async (
      action: string,
      resourceType: string,
      req: { method: string; path: string; headers: Headers; json?: unknown; status: number },
      resourceId?: string,
    ) => {
      const headers = traced(req.headers, `agent/${expected.length}`);
      const body = await ok(h.request(req.path, { method: req.method, headers, json: req.json }), req.status);
      const actor = req.headers === session ? user : key;
      expected.push({
        action,
        resourceType,
        resourceId: resourceId ?? body.id,
        actor,
        userAgent: headers['user-agent'],
        requestId: headers['x-request-id'],
      });
      return body;
    };

    const minted = await step('api_key.created', 'api_key', {
      method: 'POST',
      path: '/v1/api-keys',
      headers: session,
      json: { name: 'ci', scopes: ['runs:read'], monthlySpendCapUsd: 2 },
      status: 201,
    });
    const capPath = `/v1/api-keys/${minted.id}/spend-cap`;
    const cap = { method: 'PUT', path: capPath, headers: session, json: { monthlySpendCapUsd: 5 }, status: 200 };
    await step('api_key.spend_cap_changed', 'api_key', cap, minted.id);
    const revoke = { method: 'DELETE', path: `/v1/api-keys/${minted.id}`, headers: keyAuth, status: 204 };
    await step('api_key.revoked', 'api_key', revoke, minted.id);
    const hook = await step('webhook.created', 'webhook', {
      method: 'POST',
      path: '/v1/webhooks',
      headers: keyAuth,
      json: { url: 'http://127.0.0.1:9/hook', events: ['run.succeeded'], secret: 'a-webhook-secret-0123456789' },
      status: 201,
    });
    const unhook = { method: 'DELETE', path: `/v1/webhooks/${hook.id}`, headers: session, status: 204 };
    await step('webhook.deleted', 'webhook', unhook, hook.id);
    const conn = await step('output_connection.created', 'output_connection', {
      method: 'POST',
      path: '/v1/output-connections',
      headers: session,
      json: { name: 'Sink', type: 'http', url: 'http://127.0.0.1:9/out', secret: 'an-output-secret-0123456789' },
      status: 201,
    });
    const unconn = { method: 'DELETE', path: `/v1/output-connections/${conn.id}`, headers: keyAuth, status: 204 };
    await step('output_connection.deleted', 'output_connection', unconn, conn.id);

    const source = await ok(
      h.request('/v1/data-sources', {
        method: 'POST',
        headers: session,
        json: {
          name: 'Warehouse',
          type: 'postgres',
          config: { host: 'db.example.com', port: 5432, database: 'w', user: 'u', password: 'first-password' },
        },
      }),
      201,
    );
    await step(
      'data_source.credentials_changed',
      'data_source',
      {
        method: 'PATCH',
        path: `/v1/data-sources/${source.id}`,
        headers: session,
        json: { config: { user: 'v', password: 'second-password' } },
        status: 200,
      },
      source.id,
    );
    // a rename changes no credential and records nothing
    await ok(
      h.request(`/v1/data-sources/${source.id}`, { method: 'PATCH', headers: session, json: { name: 'W' } }),
      200,
    );

    const agent = await ok(h.request('/v1/agents', { method: 'POST', headers: keyAuth, json: { name: 'A' } }), 201);
    const app = await ok(
      h.request('/v1/apps', {
        method: 'POST',
        headers: keyAuth,
        json: { templateId: 'summarizer', slug: `audit-${agent.id.slice(0, 8)}`, agentId: agent.id },
      }),
      201,
    );
    const publish = { method: 'POST', path: `/v1/apps/${app.id}/publish`, headers: keyAuth, status: 200 };
    await step('app.published', 'app', publish, app.id);
    // publishing a published app changes nothing and records nothing
    await ok(h.request(`/v1/apps/${app.id}/publish`, { method: 'POST', headers: keyAuth }), 200);
    await step('app.paused', 'app', { ...publish, path: `/v1/apps/${app.id}/pause`, headers: session }, app.id);

    const project = await ok(h.request('/v1/projects', { method: 'POST', headers: session, json: { name: 'P' } }), 201);
    const role = { method: 'PUT', path: `/v1/projects/${project.id}/members/${owner.userId}`, headers: session };
    await step(
      'project_member.role_changed',
      'project',
      { ...role, json: { role: 'viewer' }, status: 201 },
      project.id,
    );
    await step(
      'project_member.role_changed',
      'project',
      { ...role, json: { role: 'editor' }, status: 200 },
      project.id,
    );

    await runAdmin(h.orm, ['workspace:plan', owner.workspaceId, 'business']);
    const system = { action: 'workspace.plan_changed', resourceType: 'workspace', resourceId: owner.workspaceId };
    expected.push({ ...system, actor: { type: 'system' }, userAgent: null, requestId: null });

    const entries = await auditLog(h, keyAuth);
    // the first entries are the setup's key (made by the owner's session)
    const recent = entries.slice(0, expected.length).reverse();
    expect(recent.map((e) => e.action)).toEqual(expected.map((e) => e.action));
    recent.forEach((entry, i) => {
      const want = expected[i];
      expect(entry).toMatchObject({
        action: want.action,
        resourceType: want.resourceType,
        resourceId: want.resourceId,
        actor: want.actor,
        userAgent: want.userAgent,
        requestId: want.requestId,
      });
      expect(entry.ip).toEqual(want.requestId ? expect.stringMatching(/127\.0\.0\.1$/) : null);
    });
    const byAction = Object.fromEntries(recent.map((e) => [e.action, e]));
    expect(byAction['api_key.spend_cap_changed'].details).toMatchObject({ from: 2, to: 5 });
    expect(byAction['data_source.credentials_changed'].details).toEqual({
      name: 'Warehouse',
      changed: ['password', 'user'],
    });
    const roles = recent.filter((e) => e.action === 'project_member.role_changed').map((e) => e.details);
    expect(roles).toEqual([
      { userId: owner.userId, role: 'viewer', previousRole: null },
      { userId: owner.userId, role: 'editor', previousRole: 'viewer' },
    ]);
    expect(byAction['workspace.plan_changed'].details).toEqual({ from: 'free_trial', to: 'business' });
    // no secret ever reaches the log: not the passwords, not the webhook's or the connection's secret
    const text = JSON.stringify(entries);
    for (const secret of ['first-password', 'second-password', 'a-webhook-secret', 'an-output-secret', minted.key]) {
      expect(text).not.toContain(secret);
    }
  });

  it('is for owners, admins and keys with keys:manage: members and other keys get 403', async () => {
    const admin = await signUp(h);
    await addMember(h, admin.userId, owner.workspaceId, 'admin');
    const member = await signUp(h);
    await addMember(h, member.userId, owner.workspaceId, 'member');
    const inWorkspace = { 'x-workspace-id': owner.workspaceId };
    const adminRead = await ok(h.request('/v1/audit', { headers: { cookie: admin.cookie, ...inWorkspace } }), 200);
    expect(adminRead.entries.length).toBeGreaterThan(0);
    await error(h.request('/v1/audit', { headers: { cookie: member.cookie, ...inWorkspace } }), 403, 'forbidden');
    await error(
      h.request('/v1/audit/export', { headers: { cookie: member.cookie, ...inWorkspace } }),
      403,
      'forbidden',
    );
    // an admin may read the log but still not manage keys
    await error(h.request('/v1/api-keys', { headers: { cookie: admin.cookie, ...inWorkspace } }), 403, 'forbidden');
    const reader = bearer(await createKey(h, owner, ['runs:read', 'webhooks:manage']));
    await error(h.request('/v1/audit', { headers: reader }), 403, 'forbidden');
    await error(h.request('/v1/audit?format=csv', { headers: reader }), 403, 'forbidden');
    await error(h.request('/v1/audit'), 401, 'unauthorized');
  });

  it("never shows another workspace's entries", async () => {
    const other = await signUp(h);
    const otherKey = bearer(await createKey(h, other, ['keys:manage']));
    const theirs = await auditLog(h, otherKey);
    // their own key's creation only
    expect(theirs.map((e) => e.action)).toEqual(['api_key.created']);
    expect(await auditLog(h, otherKey, `&resourceId=${owner.workspaceId}`)).toEqual([]);
    expect(await auditLog(h, otherKey, `&actorId=${owner.userId}`)).toEqual([]);
    const csv = await (await h.request('/v1/audit/export', { headers: otherKey })).text();
    expect(csv.trim().split('\r\n')).toHaveLength(2);
    expect(csv).not.toContain(owner.userId);
  });

  it('pages newest first and filters by resource, actor and time; malformed filters are 400', async () => {
    const fresh = await signUp(h);
    const auth = { cookie: fresh.cookie };
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const body = { name: `k${i}`, scopes: ['runs:read'] };
      ids.push((await ok(h.request('/v1/api-keys', { method: 'POST', headers: auth, json: body }), 201)).id);
    }
    const first = await ok(h.request('/v1/audit?limit=2', { headers: auth }), 200);
    expect(first.entries.map((e: any) => e.resourceId)).toEqual([ids[4], ids[3]]);
    const second = await ok(h.request(`/v1/audit?limit=2&cursor=${first.nextCursor}`, { headers: auth }), 200);
    expect(second.entries.map((e: any) => e.resourceId)).toEqual([ids[2], ids[1]]);
    const third = await ok(h.request(`/v1/audit?limit=2&cursor=${second.nextCursor}`, { headers: auth }), 200);
    expect(third).toEqual({ entries: [expect.objectContaining({ resourceId: ids[0] })], nextCursor: null });

    expect((await auditLog(h, auth, `&resourceType=api_key&resourceId=${ids[2]}`)).map((e) => e.resourceId)).toEqual([
      ids[2],
    ]);
    expect(await auditLog(h, auth, `&resourceType=webhook`)).toEqual([]);
    expect(await auditLog(h, auth, `&actorId=${fresh.userId}`)).toHaveLength(5);
    const at = first.entries[1].at as string;
    expect((await auditLog(h, auth, `&from=${at}`)).length).toBeGreaterThanOrEqual(2);
    expect(await auditLog(h, auth, `&to=2000-01-01T00:00:00Z`)).toEqual([]);
    expect(await auditLog(h, auth, `&from=2999-01-01T00:00:00Z`)).toEqual([]);

    const bad = [
      'cursor=nope',
      'actorId=not-a-uuid',
      'from=yesterday',
      'resourceType=planet',
      'limit=101',
      'resourceId=a%00b',
    ];
    for (const query of [...bad, 'resourceId=a&resourceId=b', 'action=api_key.deleted', 'format=xml']) {
      await error(h.request(`/v1/audit?${query}`, { headers: auth }), 400, 'validation_error');
    }
    // a window that ends before it starts holds nothing
    expect(await auditLog(h, auth, '&from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z')).toEqual([]);
  });
});
