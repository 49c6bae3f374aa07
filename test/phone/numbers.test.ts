import { bearer, createKey, setPlan, signUp, type Account } from '../helpers/factories';
import { startApi, type Harness } from '../helpers/harness';
import { error, ok } from '../helpers/responses';
import { call, createNumber, createPhoneAgent, CREDENTIALS, uniqueE164 } from './helpers';
import { callback, sign } from './telephony';

type Headers = Record<string, string>;

// Phone voices, models, phone agents and numbers with their secrets (docs/api/phone.md).
describe('phone numbers and phone agents', () => {
  let h: Harness;
  let owner: Account;
  let manager: Headers;
  let reader: Headers;
  let agentsOnly: Headers;
  let other: Headers;
  beforeAll(async () => {
    h = await startApi();
    owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    manager = bearer(await createKey(h, owner, ['phone:read', 'phone:manage', 'agents:read', 'agents:write']));
    reader = bearer(await createKey(h, owner, ['phone:read']));
    agentsOnly = bearer(await createKey(h, owner, ['agents:read', 'agents:write']));
    const stranger = await signUp(h);
    await setPlan(h, stranger.workspaceId, 'scale');
    other = bearer(await createKey(h, stranger, ['phone:read', 'phone:manage', 'agents:read', 'agents:write']));
  });
  afterAll(() => h.close());

  it('lists voices and models to phone:read only', async () => {
    const { voices } = await ok(call(h, 'GET', '/v1/phone/voices', reader), 200);
    expect(voices).toContainEqual({ id: 'Polly.Joanna', name: 'Joanna', language: 'en-US', gender: 'female' });
    const { models } = await ok(call(h, 'GET', '/v1/phone/models', reader), 200);
    expect(models.map((m: { id: string }) => m.id)).toEqual(
      expect.arrayContaining(['builtin/echo', 'builtin/scripted']),
    );
    await error(call(h, 'GET', '/v1/phone/voices', agentsOnly), 403, 'forbidden');
    await error(call(h, 'GET', '/v1/phone/models', agentsOnly), 403, 'forbidden');
  });

  it('needs phone:manage besides agents:write to create, change or delete an agent on a phone preset', async () => {
    await error(call(h, 'POST', '/v1/agents', agentsOnly, { name: 'x', presetId: 'phone-booking' }), 403, 'forbidden');
    const agent = await createPhoneAgent(h, manager, { presetId: 'phone-booking' });
    expect(agent).toMatchObject({
      presetId: 'phone-booking',
      tools: ['calendar_free_slots', 'calendar_book'],
      settings: { voice: 'Polly.Matthew' },
    });
    await error(call(h, 'PATCH', `/v1/agents/${agent.id}`, agentsOnly, { name: 'y' }), 403, 'forbidden');
    await error(call(h, 'POST', `/v1/agents/${agent.id}/versions/1/restore`, agentsOnly), 403, 'forbidden');
    await error(call(h, 'DELETE', `/v1/agents/${agent.id}`, agentsOnly), 403, 'forbidden');
    const proposal = await ok(
      call(h, 'POST', `/v1/agents/${agent.id}/proposals`, manager, {
        changes: { instructions: 'Be brief.' },
        rationale: 'shorter calls',
      }),
      201,
    );
    await error(call(h, 'POST', `/v1/proposals/${proposal.id}/accept`, agentsOnly), 403, 'forbidden');
    const changed = await ok(
      call(h, 'PATCH', `/v1/agents/${agent.id}`, manager, { settings: { voice: 'Polly.Amy' } }),
      200,
    );
    expect(changed.settings.voice).toBe('Polly.Amy');
    const e = await error(
      call(h, 'PATCH', `/v1/agents/${agent.id}`, manager, { settings: { voice: 'Robot.Bob' } }),
      400,
      'validation_error',
    );
    expect(e.details.issues[0].path).toBe('settings.voice');
    // an agent on another preset needs no phone scope
    const plain = await ok(call(h, 'POST', '/v1/agents', agentsOnly, { name: 'plain' }), 201);
    expect((await call(h, 'DELETE', `/v1/agents/${plain.id}`, agentsOnly)).status).toBe(204);
    expect((await call(h, 'DELETE', `/v1/agents/${agent.id}`, manager)).status).toBe(204);
  });

  it('connects, reads, changes and removes numbers, never showing credentials or the secret again', async () => {
    const agent = await createPhoneAgent(h, manager);
    const e164 = uniqueE164();
    const created = await createNumber(h, manager, agent.id, e164);
    expect(created).toEqual({
      id: expect.any(String),
      e164,
      provider: 'twilio',
      agentId: agent.id,
      callbackUrl: expect.stringMatching(new RegExp(`^${h.url}/hooks/phone/${created.id}/[A-Za-z0-9_-]{43}$`)),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const { callbackUrl, ...shown } = created;
    expect(await ok(call(h, 'GET', `/v1/phone/numbers/${created.id}`, reader), 200)).toEqual(shown);
    const { numbers } = await ok(call(h, 'GET', '/v1/phone/numbers', reader), 200);
    expect(numbers).toContainEqual(shown);
    const second = await createPhoneAgent(h, manager, { name: 'Second' });
    const moved = await ok(
      call(h, 'PATCH', `/v1/phone/numbers/${created.id}`, manager, {
        agentId: second.id,
        credentials: { accountSid: 'AC99', authToken: 'another-token-9876' },
      }),
      200,
    );
    expect(moved).toMatchObject({ agentId: second.id, e164 });
    const all = JSON.stringify([created, moved, numbers]) + h.logs.join('\n');
    const token = callbackUrl.split('/').pop();
    expect(h.logs.join('\n')).not.toContain(token);
    for (const secret of [CREDENTIALS.authToken, 'another-token-9876']) expect(all).not.toContain(secret);
    const rotated = await ok(call(h, 'POST', `/v1/phone/numbers/${created.id}/rotate-secret`, manager), 200);
    expect(rotated).toEqual({
      callbackUrl: expect.stringMatching(new RegExp(`/hooks/phone/${created.id}/[\\w-]{43}$`)),
    });
    expect(rotated.callbackUrl).not.toBe(callbackUrl);
    expect(h.logs.join('\n')).not.toContain(rotated.callbackUrl.split('/').pop());
    // only a hash of the token is stored
    const [row] = await h.orm.em
      .fork()
      .execute('select callback_token_hash from phone_numbers where id = ?', [created.id]);
    expect(JSON.stringify(row)).not.toContain(rotated.callbackUrl.split('/').pop());
    // a number is connected once
    await error(
      call(h, 'POST', '/v1/phone/numbers', manager, {
        e164,
        provider: 'twilio',
        agentId: agent.id,
        credentials: CREDENTIALS,
      }),
      409,
      'conflict',
    );
    expect((await call(h, 'DELETE', `/v1/phone/numbers/${created.id}`, manager)).status).toBe(204);
    await error(call(h, 'GET', `/v1/phone/numbers/${created.id}`, reader), 404, 'not_found');
    await error(call(h, 'DELETE', `/v1/phone/numbers/${created.id}`, manager), 404, 'not_found');
    // removed, the number is free again
    await createNumber(h, manager, agent.id, e164);
  });

  it('refuses agents that are not phone agents of the workspace, and malformed bodies', async () => {
    const plain = await ok(call(h, 'POST', '/v1/agents', manager, { name: 'plain' }), 201);
    const foreign = await createPhoneAgent(h, other);
    for (const agentId of [plain.id, foreign.id, '00000000-0000-4000-8000-000000000000']) {
      const e = await error(
        call(h, 'POST', '/v1/phone/numbers', manager, {
          e164: uniqueE164(),
          provider: 'twilio',
          agentId,
          credentials: CREDENTIALS,
        }),
        400,
        'validation_error',
      );
      expect(e.details.issues[0].path).toBe('agentId');
    }
    const agent = await createPhoneAgent(h, manager);
    const good = { e164: uniqueE164(), provider: 'twilio', agentId: agent.id, credentials: CREDENTIALS };
    for (const body of [
      {},
      { ...good, e164: '4155550100' },
      { ...good, provider: 'vonage' },
      { ...good, credentials: { accountSid: 'AC1' } },
      { ...good, extra: true },
    ]) {
      await error(call(h, 'POST', '/v1/phone/numbers', manager, body), 400, 'validation_error');
    }
    const number = await createNumber(h, manager, agent.id);
    await error(call(h, 'PATCH', `/v1/phone/numbers/${number.id}`, manager, {}), 400, 'validation_error');
  });

  it('keeps numbers to their workspace and their scopes', async () => {
    const agent = await createPhoneAgent(h, manager);
    const number = await createNumber(h, manager, agent.id);
    for (const [method, path] of [
      ['GET', `/v1/phone/numbers/${number.id}`],
      ['PATCH', `/v1/phone/numbers/${number.id}`],
      ['DELETE', `/v1/phone/numbers/${number.id}`],
      ['POST', `/v1/phone/numbers/${number.id}/rotate-secret`],
      ['GET', `/v1/phone/calls?numberId=${number.id}`],
    ]) {
      const body = method === 'PATCH' ? { credentials: CREDENTIALS } : undefined;
      await error(call(h, method, path, other, body), 404, 'not_found');
    }
    const { numbers } = await ok(call(h, 'GET', '/v1/phone/numbers', other), 200);
    expect(numbers.map((n: { id: string }) => n.id)).not.toContain(number.id);
    await error(call(h, 'POST', `/v1/phone/numbers/${number.id}/rotate-secret`, reader), 403, 'forbidden');
    await error(call(h, 'DELETE', `/v1/phone/numbers/${number.id}`, reader), 403, 'forbidden');
    await error(call(h, 'GET', '/v1/phone/numbers', agentsOnly), 403, 'forbidden');
    await error(
      call(h, 'POST', '/v1/phone/calls', reader, { numberId: number.id, to: '+14155550100' }),
      403,
      'forbidden',
    );
    await error(
      call(h, 'POST', '/v1/phone/calls', other, { numberId: number.id, to: '+14155550100' }),
      404,
      'not_found',
    );
    // a session member reads, only an admin or owner manages
    const member = await signUp(h);
    const { addMember } = await import('../helpers/factories');
    await addMember(h, member.userId, owner.workspaceId, 'member');
    const session = { cookie: member.cookie, 'x-workspace-id': owner.workspaceId };
    await ok(call(h, 'GET', `/v1/phone/numbers/${number.id}`, session), 200);
    await error(call(h, 'POST', `/v1/phone/numbers/${number.id}/rotate-secret`, session), 403, 'forbidden');
    await ok(call(h, 'GET', `/v1/phone/numbers/${number.id}`, { cookie: owner.cookie }), 200);
  });

  it('answers callbacks 404 without the current token, 403 without the Auth Token signature, and records nothing', async () => {
    const agent = await createPhoneAgent(h, manager);
    const number = await createNumber(h, manager, agent.id);
    const url: string = number.callbackUrl;
    const params = { CallSid: 'CAbad0001', From: '+14155550111', To: number.e164, CallStatus: 'ringing' };
    expect((await callback(url, null, params)).status).toBe(403);
    expect((await callback(url, 'not-the-auth-token', params)).status).toBe(403);
    expect((await callback(url, CREDENTIALS.authToken, params, 'AAAA')).status).toBe(403);
    // signed over other parameters than the ones sent
    const forged = sign(CREDENTIALS.authToken, url, { ...params, From: 'x' });
    expect((await callback(url, null, params, forged)).status).toBe(403);
    // signed over the URL the request reached rather than the public one (another Host)
    const { port } = new URL(h.url);
    const viaLocalhost = url.replace(h.url, `http://localhost:${port}`);
    const hostSigned = sign(CREDENTIALS.authToken, viaLocalhost, params);
    expect((await callback(viaLocalhost, null, params, hostSigned)).status).toBe(403);
    // a signed callback with the number's path but another token
    const otherToken = `${h.url}/hooks/phone/${number.id}/${'A'.repeat(43)}`;
    expect((await callback(otherToken, CREDENTIALS.authToken, params)).status).toBe(404);
    expect((await callback(`${h.url}/hooks/phone/${number.id}`, CREDENTIALS.authToken, params)).status).toBe(404);
    const { callbackUrl } = await ok(call(h, 'POST', `/v1/phone/numbers/${number.id}/rotate-secret`, manager), 200);
    expect((await callback(url, CREDENTIALS.authToken, params)).status).toBe(404);
    const { calls } = await ok(call(h, 'GET', `/v1/phone/calls?numberId=${number.id}`, reader), 200);
    expect(calls).toEqual([]);
    expect((await call(h, 'DELETE', `/v1/phone/numbers/${number.id}`, manager)).status).toBe(204);
    expect((await callback(callbackUrl, CREDENTIALS.authToken, params)).status).toBe(404);
    const token = callbackUrl.split('/').pop();
    expect((await callback(`${h.url}/hooks/phone/not-a-uuid/${token}`, CREDENTIALS.authToken, params)).status).toBe(
      404,
    );
    const unknown = `${h.url}/hooks/phone/00000000-0000-4000-8000-000000000000/${token}`;
    expect((await callback(unknown, CREDENTIALS.authToken, params)).status).toBe(404);
    const after = await ok(call(h, 'GET', `/v1/phone/calls?numberId=${number.id}`, reader), 200);
    expect(after.calls).toEqual([]);
  });
});
