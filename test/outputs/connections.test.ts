import { randomUUID } from 'node:crypto';
import { startApi, type Harness } from '../helpers/harness';
import { addMember, bearer, createKey, setPlan, signUp } from '../helpers/factories';

// Save-output connections (docs/api/output-connections.md), with the public-address guard ON.
describe('output connections', () => {
  let h: Harness;
  let auth: Record<string, string>;
  let agentsAuth: Record<string, string>;
  const secret = 'an-output-secret-0123456789';
  beforeAll(async () => {
    h = await startApi({ allowPrivateWebhooks: false });
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    auth = bearer(await createKey(h, owner, ['webhooks:manage']));
    agentsAuth = bearer(await createKey(h, owner, ['agents:write', 'agents:read']));
  });
  afterAll(() => h.close());

  const create = (json: unknown, headers = auth) =>
    h.request('/v1/output-connections', { method: 'POST', headers, json });

  it('creates, gets, lists and deletes; the secret is never returned nor logged', async () => {
    const res = await create({ name: ' Sink ', type: 'http', url: 'https://8.8.8.8/out', secret });
    expect(res.status).toBe(201);
    const conn = await res.json();
    expect(Object.keys(conn).sort()).toEqual(['createdAt', 'id', 'name', 'savedTableId', 'type', 'updatedAt', 'url']);
    expect(conn).toMatchObject({ name: 'Sink', type: 'http', url: 'https://8.8.8.8/out', savedTableId: null });
    const got = await (await h.request(`/v1/output-connections/${conn.id}`, { headers: auth })).json();
    expect(got).toEqual(conn);
    const list = await (await h.request('/v1/output-connections?limit=1', { headers: auth })).json();
    expect(list).toEqual({ outputConnections: [conn], nextCursor: null });
    const deliveries = await (
      await h.request(`/v1/output-connections/${conn.id}/deliveries`, { headers: auth })
    ).json();
    expect(deliveries).toEqual({ deliveries: [], nextCursor: null });
    expect(JSON.stringify([conn, got, list])).not.toContain(secret);
    expect(h.logs.join('\n')).not.toContain(secret);
    expect((await h.request(`/v1/output-connections/${conn.id}`, { method: 'DELETE', headers: auth })).status).toBe(
      204,
    );
    expect((await h.request(`/v1/output-connections/${conn.id}`, { method: 'DELETE', headers: auth })).status).toBe(
      404,
    );
    expect((await h.request(`/v1/output-connections/${conn.id}`, { headers: auth })).status).toBe(404);
  });

  it('refuses private URLs like webhooks, bad bodies, and unknown saved tables', async () => {
    for (const url of ['http://127.0.0.1/x', 'http://10.0.0.1/x', 'ftp://8.8.8.8/x', 'http://[::1]/x']) {
      const res = await create({ name: 'x', type: 'http', url, secret });
      expect([url, res.status, (await res.json()).error.code]).toEqual([url, 400, 'webhook.url_not_public']);
    }
    for (const body of [
      { name: 'x', type: 'http', url: 'https://8.8.8.8/', secret: 'short' },
      { name: 'x', type: 'http', url: 'https://8.8.8.8/' },
      { name: '', type: 'http', url: 'https://8.8.8.8/', secret },
      { name: 'x', type: 'ftp', url: 'https://8.8.8.8/', secret },
      { name: 'x', type: 'saved_table' },
    ]) {
      const res = await create(body);
      expect(res.status).toBe(400);
      expect((await res.json()).error.code).toBe('validation_error');
    }
    // an unknown saved table is 400 at its path, like every id in a body (test/outputs/savedTable.test.ts makes real ones)
    const table = await create({ name: 't', type: 'saved_table', savedTableId: randomUUID() });
    expect(table.status).toBe(400);
    const err = (await table.json()).error;
    expect(err.code).toBe('validation_error');
    expect(err.details.issues).toEqual([expect.objectContaining({ path: 'savedTableId' })]);
  });

  it('needs webhooks:manage (403), and another workspace sees 404', async () => {
    const conn = await (await create({ name: 'mine', type: 'http', url: 'https://8.8.8.8/o', secret })).json();
    const denied = [
      await create({ name: 'x', type: 'http', url: 'https://8.8.8.8/', secret }, agentsAuth),
      await h.request('/v1/output-connections', { headers: agentsAuth }),
      await h.request(`/v1/output-connections/${conn.id}`, { headers: agentsAuth }),
      await h.request(`/v1/output-connections/${conn.id}/deliveries`, { headers: agentsAuth }),
      await h.request(`/v1/output-connections/${conn.id}`, { method: 'DELETE', headers: agentsAuth }),
    ];
    expect(denied.map((r) => r.status)).toEqual([403, 403, 403, 403, 403]);

    const other = await signUp(h);
    const otherAuth = bearer(await createKey(h, other, ['webhooks:manage', 'agents:write']));
    const foreign = [
      await h.request(`/v1/output-connections/${conn.id}`, { headers: otherAuth }),
      await h.request(`/v1/output-connections/${conn.id}/deliveries`, { headers: otherAuth }),
      await h.request(`/v1/output-connections/${conn.id}`, { method: 'DELETE', headers: otherAuth }),
    ];
    expect(foreign.map((r) => r.status)).toEqual([404, 404, 404]);
    const theirs = await (await h.request('/v1/output-connections', { headers: otherAuth })).json();
    expect(theirs.outputConnections).toEqual([]);
    // an agent of the other workspace cannot list it either
    const agent = await h.request('/v1/agents', {
      method: 'POST',
      headers: otherAuth,
      json: { name: 'a', settings: { saveOutput: [conn.id] } },
    });
    expect(agent.status).toBe(400);
  });

  it('session callers: a member may not manage connections (403), an admin may', async () => {
    const owner = await signUp(h);
    const member = await signUp(h);
    const admin = await signUp(h);
    await addMember(h, member.userId, owner.workspaceId, 'member');
    await addMember(h, admin.userId, owner.workspaceId, 'admin');
    const as = (a: { cookie: string }) => ({ cookie: a.cookie, 'x-workspace-id': owner.workspaceId });
    const body = { name: 's', type: 'http', url: 'https://8.8.8.8/o', secret };
    expect((await create(body, as(member))).status).toBe(403);
    expect((await h.request('/v1/output-connections', { headers: as(member) })).status).toBe(403);
    expect((await create(body, as(admin))).status).toBe(201);
  });

  it('agents list connections in settings.saveOutput: unknown or deleted ones are 400 at their path', async () => {
    const conn = await (await create({ name: 'ok', type: 'http', url: 'https://8.8.8.8/o', secret })).json();
    const created = await h.request('/v1/agents', {
      method: 'POST',
      headers: agentsAuth,
      json: { name: 'saver', settings: { saveOutput: [conn.id, conn.id] } },
    });
    expect(created.status).toBe(201);
    const agent = await created.json();
    expect(agent.settings.saveOutput).toEqual([conn.id]);

    const unknown = randomUUID();
    const bad = await h.request(`/v1/agents/${agent.id}`, {
      method: 'PATCH',
      headers: agentsAuth,
      json: { settings: { saveOutput: [conn.id, unknown] } },
    });
    expect(bad.status).toBe(400);
    const err = (await bad.json()).error;
    expect(err.code).toBe('validation_error');
    expect(err.details.issues).toEqual([
      { path: 'settings.saveOutput.1', message: `Unknown output connection ${unknown}` },
    ]);

    await h.request(`/v1/output-connections/${conn.id}`, { method: 'DELETE', headers: auth });
    const deleted = await h.request('/v1/agents', {
      method: 'POST',
      headers: agentsAuth,
      json: { name: 'late', settings: { saveOutput: [conn.id] } },
    });
    expect(deleted.status).toBe(400);
    const malformed = await h.request('/v1/agents', {
      method: 'POST',
      headers: agentsAuth,
      json: { name: 'bad', settings: { saveOutput: ['nope'] } },
    });
    expect(malformed.status).toBe(400);
  });
});
