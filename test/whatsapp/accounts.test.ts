import { randomUUID } from 'node:crypto';
import { WhatsAppAccount } from '../../db/entities/WhatsAppAccount';
import { addMember, bearer, createKey, setPlan, signUp, type Account } from '../helpers/factories';
import { startApi, type Harness } from '../helpers/harness';
import { error, ok } from '../helpers/responses';
import { createAgent } from '../helpers/runs';
import { postNotification, sign, statusNotification } from './fake';

type Headers = Record<string, string>;

// WhatsApp accounts and the webhook's verification and signature checks (docs/api/whatsapp.md).
describe('WhatsApp accounts and webhook checks', () => {
  let h: Harness;
  let owner: Account;
  let manager: Headers;
  let reader: Headers;
  let agentId: string;
  beforeAll(async () => {
    h = await startApi();
    owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    manager = bearer(await createKey(h, owner, ['whatsapp:read', 'whatsapp:manage', 'agents:write']));
    reader = bearer(await createKey(h, owner, ['whatsapp:read']));
    agentId = (await createAgent(h, manager, {})).id;
  });
  afterAll(() => h.close());

  const call = (method: string, path: string, headers: Headers, json?: unknown) =>
    h.request(path, { method, headers, json });
  const phone = () => String(100_000_000_000 + Math.floor(Math.random() * 899_999_999_999));
  const secrets = () => ({
    accessToken: `EAAG${randomUUID().replace(/-/g, '')}`,
    appSecret: `app-${randomUUID()}`,
    verifyToken: `verify-${randomUUID()}`,
  });
  const newAccount = async (headers = manager, agent = agentId) => {
    const s = secrets();
    const body = { phoneNumberId: phone(), agentId: agent, ...s };
    return { ...s, account: await ok(call('POST', '/v1/whatsapp/accounts', headers, body), 201) };
  };

  it('connects, lists, changes and removes accounts, never showing a credential', async () => {
    const s = secrets();
    const phoneNumberId = phone();
    const created = await ok(call('POST', '/v1/whatsapp/accounts', manager, { phoneNumberId, agentId, ...s }), 201);
    expect(created).toEqual({
      id: expect.any(String),
      phoneNumberId,
      agentId,
      template: null,
      webhookUrl: `${h.config.publicUrl}/hooks/whatsapp/${created.id}`,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const { accounts, nextCursor } = await ok(call('GET', '/v1/whatsapp/accounts', reader), 200);
    expect(accounts.find((a: { id: string }) => a.id === created.id)).toEqual(created);
    expect(nextCursor).toBeNull();

    const other = (await createAgent(h, manager, { name: 'other' })).id;
    const changed = await ok(
      call('PATCH', `/v1/whatsapp/accounts/${created.id}`, manager, { agentId: other, accessToken: 'EAAGnew' }),
      200,
    );
    expect(changed).toMatchObject({ id: created.id, agentId: other, phoneNumberId });

    // stored sealed, never as given
    const row = await h.orm.em.fork().findOneOrFail(WhatsAppAccount, { id: created.id });
    for (const plain of [s.appSecret, s.verifyToken, 'EAAGnew']) {
      expect(JSON.stringify(row)).not.toContain(plain);
    }
    const everything = JSON.stringify([created, accounts, changed]) + h.logs.join('\n');
    for (const plain of [s.accessToken, s.appSecret, s.verifyToken, 'EAAGnew']) expect(everything).not.toContain(plain);

    expect((await call('DELETE', `/v1/whatsapp/accounts/${created.id}`, manager)).status).toBe(204);
    await error(call('DELETE', `/v1/whatsapp/accounts/${created.id}`, manager), 404, 'not_found');
    await error(call('PATCH', `/v1/whatsapp/accounts/${created.id}`, manager, { agentId }), 404, 'not_found');
    const after = await ok(call('GET', '/v1/whatsapp/accounts', reader), 200);
    expect(after.accounts.map((a: { id: string }) => a.id)).not.toContain(created.id);
    // the phone number is free again once its account is removed
    await ok(call('POST', '/v1/whatsapp/accounts', manager, { phoneNumberId, agentId, ...secrets() }), 201);
  });

  it('keeps one live account per phone number id in a workspace: 409 conflict', async () => {
    const { account } = await newAccount();
    const clash = { phoneNumberId: account.phoneNumberId, agentId, ...secrets() };
    await error(call('POST', '/v1/whatsapp/accounts', manager, clash), 409, 'conflict');
    const { account: second } = await newAccount();
    await error(
      call('PATCH', `/v1/whatsapp/accounts/${second.id}`, manager, { phoneNumberId: account.phoneNumberId }),
      409,
      'conflict',
    );
    // another workspace may connect the same number: the webhook URL names the account, not the number
    const stranger = await signUp(h);
    const theirs = bearer(await createKey(h, stranger, ['whatsapp:manage', 'agents:write']));
    const theirAgent = (await createAgent(h, theirs, {})).id;
    await ok(call('POST', '/v1/whatsapp/accounts', theirs, { ...clash, agentId: theirAgent }), 201);
  });

  it('pages accounts newest first', async () => {
    const account = await signUp(h);
    await setPlan(h, account.workspaceId, 'scale');
    const auth = bearer(await createKey(h, account, ['whatsapp:read', 'whatsapp:manage', 'agents:write']));
    const agent = (await createAgent(h, auth, {})).id;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await newAccount(auth, agent)).account.id);
    const first = await ok(call('GET', '/v1/whatsapp/accounts?limit=2', auth), 200);
    expect(first.accounts.map((a: { id: string }) => a.id)).toEqual([ids[2], ids[1]]);
    const second = await ok(call('GET', `/v1/whatsapp/accounts?limit=2&cursor=${first.nextCursor}`, auth), 200);
    expect(second).toEqual({ accounts: [expect.objectContaining({ id: ids[0] })], nextCursor: null });
    await error(call('GET', '/v1/whatsapp/accounts?cursor=nope', auth), 400, 'validation_error');
  });

  it('refuses malformed bodies with 400 naming each issue, and agents of no one with 400 at agentId', async () => {
    const good = { phoneNumberId: phone(), agentId, ...secrets() };
    for (const body of [
      {},
      { ...good, phoneNumberId: '+1 555' },
      { ...good, accessToken: 'has space' },
      { ...good, appSecret: '' },
      { ...good, agentId: 'nope' },
      { ...good, extra: 1 },
      { ...good, template: { name: 'Follow Up', language: 'en_US' } },
      { ...good, template: { name: 'follow_up', language: 'english' } },
      { ...good, template: { name: 'follow_up' } },
    ]) {
      const e = await error(call('POST', '/v1/whatsapp/accounts', manager, body), 400, 'validation_error');
      expect(e.details.issues.length).toBeGreaterThan(0);
    }
    const unknown = await error(
      call('POST', '/v1/whatsapp/accounts', manager, { ...good, agentId: randomUUID() }),
      400,
      'validation_error',
    );
    expect(unknown.details.issues[0].path).toBe('agentId');
    const { account } = await newAccount();
    await error(call('PATCH', `/v1/whatsapp/accounts/${account.id}`, manager, {}), 400, 'validation_error');
    const bad = await error(
      call('PATCH', `/v1/whatsapp/accounts/${account.id}`, manager, { template: { name: 'x', language: 'en-US' } }),
      400,
      'validation_error',
    );
    expect(bad.details.issues[0].path).toBe('template.language');
    // a template may be set and removed again
    const template = { name: 'follow_up', language: 'en_US' };
    const set = await ok(call('PATCH', `/v1/whatsapp/accounts/${account.id}`, manager, { template }), 200);
    expect(set.template).toEqual(template);
    const cleared = await ok(call('PATCH', `/v1/whatsapp/accounts/${account.id}`, manager, { template: null }), 200);
    expect(cleared.template).toBeNull();
  });

  it('needs whatsapp:read to read and whatsapp:manage to change, for keys and session roles', async () => {
    const { account } = await newAccount();
    const none = bearer(await createKey(h, owner, ['agents:read']));
    await error(call('GET', '/v1/whatsapp/accounts', none), 403, 'forbidden');
    await error(call('GET', '/v1/whatsapp/conversations', none), 403, 'forbidden');
    const body = { phoneNumberId: phone(), agentId, ...secrets() };
    await error(call('POST', '/v1/whatsapp/accounts', reader, body), 403, 'forbidden');
    await error(call('PATCH', `/v1/whatsapp/accounts/${account.id}`, reader, { agentId }), 403, 'forbidden');
    await error(call('DELETE', `/v1/whatsapp/accounts/${account.id}`, reader), 403, 'forbidden');

    const member = await signUp(h);
    await addMember(h, member.userId, owner.workspaceId, 'member');
    const session = { cookie: member.cookie, 'x-workspace-id': owner.workspaceId };
    await ok(call('GET', '/v1/whatsapp/accounts', session), 200);
    await error(call('POST', '/v1/whatsapp/accounts', session, body), 403, 'forbidden');
    await error(call('DELETE', `/v1/whatsapp/accounts/${account.id}`, session), 403, 'forbidden');
    await ok(call('POST', '/v1/whatsapp/accounts', { cookie: owner.cookie }, body), 201);
    await error(call('GET', '/v1/whatsapp/accounts', {}), 401, 'unauthorized');
  });

  it("answers 404 for another workspace's accounts", async () => {
    const { account } = await newAccount();
    const stranger = await signUp(h);
    const theirs = bearer(await createKey(h, stranger, ['whatsapp:read', 'whatsapp:manage']));
    await error(call('PATCH', `/v1/whatsapp/accounts/${account.id}`, theirs, { agentId }), 404, 'not_found');
    await error(call('DELETE', `/v1/whatsapp/accounts/${account.id}`, theirs), 404, 'not_found');
    await error(call('GET', `/v1/whatsapp/conversations?accountId=${account.id}`, theirs), 404, 'not_found');
    const listed = await ok(call('GET', '/v1/whatsapp/accounts', theirs), 200);
    expect(listed.accounts).toEqual([]);
    await error(call('DELETE', '/v1/whatsapp/accounts/not-a-uuid', manager), 404, 'not_found');
  });

  it('verifies the webhook with the verify token: echoes the challenge, else 403', async () => {
    const { account, verifyToken } = await newAccount();
    const hub = (mode: string, token: string, challenge = '1158201444') =>
      h.request(
        `/hooks/whatsapp/${account.id}?hub.mode=${mode}&hub.verify_token=${encodeURIComponent(token)}&hub.challenge=${challenge}`,
      );
    const res = await hub('subscribe', verifyToken);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toBe('1158201444');
    await error(hub('subscribe', `${verifyToken}x`), 403, 'forbidden');
    await error(hub('unsubscribe', verifyToken), 403, 'forbidden');
    await error(h.request(`/hooks/whatsapp/${account.id}?hub.mode=subscribe`), 400, 'validation_error');
    await error(
      h.request(`/hooks/whatsapp/${randomUUID()}?hub.mode=subscribe&hub.verify_token=x&hub.challenge=1`),
      404,
      'not_found',
    );
    expect(h.logs.join('\n')).not.toContain(verifyToken);
  });

  it('takes only posts signed with the app secret over the raw body: 403 otherwise', async () => {
    const { account, appSecret } = await newAccount();
    const payload = statusNotification(account.phoneNumberId, '16315551181');
    expect((await postNotification(h.url, account.id, appSecret, payload)).status).toBe(200);
    await error(postNotification(h.url, account.id, appSecret, payload, null), 403, 'forbidden');
    await error(postNotification(h.url, account.id, appSecret, payload, 'sha256=00'), 403, 'forbidden');
    await error(
      postNotification(h.url, account.id, 'another-secret', payload, sign('another-secret', '{}')),
      403,
      'forbidden',
    );
    // signed over other bytes (re-serialised JSON with the same meaning) is not the same signature
    const raw = JSON.stringify(payload);
    const spaced = JSON.stringify(payload, null, 1);
    const forged = await h.request(`/hooks/whatsapp/${account.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': sign(appSecret, raw) },
      body: spaced,
    });
    expect(forged.status).toBe(403);
    // signed garbage is refused as JSON, after the signature
    const garbage = '{"entry": [';
    const bad = await h.request(`/hooks/whatsapp/${account.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': sign(appSecret, garbage) },
      body: garbage,
    });
    expect(bad.status).toBe(400);
    const plain = await h.request(`/hooks/whatsapp/${account.id}`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'x-hub-signature-256': sign(appSecret, raw) },
      body: raw,
    });
    expect(plain.status).toBe(415);
    await error(postNotification(h.url, randomUUID(), appSecret, payload), 404, 'not_found');
  });

  it('answers 404 to the webhook of a removed account', async () => {
    const { account, appSecret, verifyToken } = await newAccount();
    expect((await call('DELETE', `/v1/whatsapp/accounts/${account.id}`, manager)).status).toBe(204);
    const payload = statusNotification(account.phoneNumberId, '16315551181');
    await error(postNotification(h.url, account.id, appSecret, payload), 404, 'not_found');
    await error(
      h.request(`/hooks/whatsapp/${account.id}?hub.mode=subscribe&hub.verify_token=${verifyToken}&hub.challenge=1`),
      404,
      'not_found',
    );
  });
});
