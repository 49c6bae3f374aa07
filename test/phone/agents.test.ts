import { randomUUID } from 'node:crypto';
import { bearer, createKey, setPlan, signUp, addMember, type Account } from '../helpers/factories';
import { startApi, type Harness } from '../helpers/harness';
import { error, ok } from '../helpers/responses';
import { call, createNumber } from './helpers';

type Headers = Record<string, string>;

// Phone agents at /v1/phone/agents (docs/api/phone.md#phone-agents): the agents of /v1/agents on a phone
// preset, with their numbers, under the phone scopes.
describe('phone agents', () => {
  let h: Harness;
  let owner: Account;
  let manager: Headers;
  let phoneOnly: Headers;
  let agentsOnly: Headers;
  let reader: Headers;
  let stranger: Headers;

  beforeAll(async () => {
    h = await startApi();
    owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    manager = bearer(await createKey(h, owner, ['phone:manage', 'phone:read', 'agents:write', 'agents:read']));
    phoneOnly = bearer(await createKey(h, owner, ['phone:manage', 'phone:read']));
    agentsOnly = bearer(await createKey(h, owner, ['agents:write', 'agents:read']));
    reader = bearer(await createKey(h, owner, ['phone:read']));
    const other = await signUp(h);
    await setPlan(h, other.workspaceId, 'scale');
    stranger = bearer(await createKey(h, other, ['phone:manage', 'phone:read', 'agents:write', 'agents:read']));
  }, 60_000);
  afterAll(() => h?.close());

  const create = (headers: Headers, body: Record<string, unknown>) =>
    call(h, 'POST', '/v1/phone/agents', headers, { name: 'Front desk', presetId: 'phone-receptionist', ...body });

  it('creates a phone agent that /v1/agents shows alike, and reads it back with its numbers', async () => {
    const agent = await ok(create(manager, { settings: { voice: 'Polly.Joanna' } }), 201);
    expect(agent).toMatchObject({ presetId: 'phone-receptionist', version: 1, numbers: [] });
    expect(agent.settings.voice).toBe('Polly.Joanna');
    const { numbers: _none, ...asAgent } = agent;
    expect(await ok(call(h, 'GET', `/v1/agents/${agent.id}`, manager), 200)).toEqual(asAgent);

    const number = await createNumber(h, manager, agent.id);
    const read = await ok(call(h, 'GET', `/v1/phone/agents/${agent.id}`, reader), 200);
    expect(read.numbers).toEqual([{ id: number.id, e164: number.e164, provider: 'twilio' }]);
    // a reader of phone agents does not see their instructions, as a reader of agents does not
    expect(read).not.toHaveProperty('instructions');

    // the same rules as /v1/agents: a definition change is a new version
    const changed = await ok(
      call(h, 'PATCH', `/v1/phone/agents/${agent.id}`, manager, { settings: { voice: 'Polly.Matthew' } }),
      200,
    );
    expect(changed).toMatchObject({ version: 2, settings: { voice: 'Polly.Matthew' } });
    expect(changed.numbers.map((n: { id: string }) => n.id)).toEqual([number.id]);
    await error(
      call(h, 'PATCH', `/v1/phone/agents/${agent.id}`, manager, { settings: { voice: 'Nobody.Voice' } }),
      400,
      'validation_error',
    );
    await error(call(h, 'PATCH', `/v1/phone/agents/${agent.id}`, manager, {}), 400, 'validation_error');

    await ok(call(h, 'DELETE', `/v1/phone/agents/${agent.id}`, manager), 204);
    await error(call(h, 'GET', `/v1/phone/agents/${agent.id}`, reader), 404, 'not_found');
    await error(call(h, 'GET', `/v1/agents/${agent.id}`, manager), 404, 'not_found');
  });

  it('knows phone agents only: other agents are 404, other presets 400', async () => {
    const plain = await ok(
      call(h, 'POST', '/v1/agents', manager, { name: 'Plain', presetId: 'general-assistant' }),
      201,
    );
    await error(call(h, 'GET', `/v1/phone/agents/${plain.id}`, reader), 404, 'not_found');
    await error(call(h, 'PATCH', `/v1/phone/agents/${plain.id}`, manager, { name: 'x' }), 404, 'not_found');
    await error(call(h, 'DELETE', `/v1/phone/agents/${plain.id}`, manager), 404, 'not_found');
    expect((await ok(call(h, 'GET', `/v1/agents/${plain.id}`, manager), 200)).name).toBe('Plain');
    const list = await ok(call(h, 'GET', '/v1/phone/agents?limit=100', reader), 200);
    expect(list.agents.map((a: { id: string }) => a.id)).not.toContain(plain.id);

    const wrong = await error(create(manager, { presetId: 'general-assistant' }), 400, 'validation_error');
    expect(JSON.stringify(wrong.details)).toContain('presetId');
    await error(create(manager, { presetId: undefined }), 400, 'validation_error');
    await error(call(h, 'GET', '/v1/phone/agents/not-a-uuid', reader), 404, 'not_found');
    await error(call(h, 'GET', `/v1/phone/agents/${randomUUID()}`, reader), 404, 'not_found');
  });

  it('needs phone:read to read, and phone:manage with agents:write to change', async () => {
    const agent = await ok(create(manager, { presetId: 'phone-booking' }), 201);
    await error(call(h, 'GET', '/v1/phone/agents', agentsOnly), 403, 'forbidden');
    await error(call(h, 'GET', `/v1/phone/agents/${agent.id}`, agentsOnly), 403, 'forbidden');
    expect((await call(h, 'GET', `/v1/phone/agents/${agent.id}`, reader)).status).toBe(200);

    for (const headers of [reader, agentsOnly, phoneOnly]) {
      await error(create(headers, {}), 403, 'forbidden');
      await error(call(h, 'PATCH', `/v1/phone/agents/${agent.id}`, headers, { name: 'x' }), 403, 'forbidden');
      await error(call(h, 'DELETE', `/v1/phone/agents/${agent.id}`, headers), 403, 'forbidden');
    }
    expect((await ok(call(h, 'GET', `/v1/phone/agents/${agent.id}`, reader), 200)).name).toBe('Front desk');

    // session callers: a member reads, an admin manages
    const member = await signUp(h);
    await addMember(h, member.userId, owner.workspaceId, 'member');
    const asMember = { cookie: member.cookie, 'x-workspace-id': owner.workspaceId };
    expect((await call(h, 'GET', `/v1/phone/agents/${agent.id}`, asMember)).status).toBe(200);
    await error(create(asMember, {}), 403, 'forbidden');
    const admin = await signUp(h);
    await addMember(h, admin.userId, owner.workspaceId, 'admin');
    const asAdmin = { cookie: admin.cookie, 'x-workspace-id': owner.workspaceId };
    await ok(call(h, 'PATCH', `/v1/phone/agents/${agent.id}`, asAdmin, { name: 'Booking desk' }), 200);
  });

  it('keeps phone agents to their workspace and pages them newest first', async () => {
    const ids: string[] = [];
    for (const name of ['one', 'two', 'three']) ids.push((await ok(create(manager, { name }), 201)).id);
    const page1 = await ok(call(h, 'GET', '/v1/phone/agents?limit=2', reader), 200);
    expect(page1.agents.map((a: { id: string }) => a.id)).toEqual([ids[2], ids[1]]);
    const page2 = await ok(call(h, 'GET', `/v1/phone/agents?limit=2&cursor=${page1.nextCursor}`, reader), 200);
    expect(page2.agents[0].id).toBe(ids[0]);
    await error(call(h, 'GET', '/v1/phone/agents?cursor=bad', reader), 400, 'validation_error');

    await error(call(h, 'GET', `/v1/phone/agents/${ids[0]}`, stranger), 404, 'not_found');
    await error(call(h, 'PATCH', `/v1/phone/agents/${ids[0]}`, stranger, { name: 'mine' }), 404, 'not_found');
    await error(call(h, 'DELETE', `/v1/phone/agents/${ids[0]}`, stranger), 404, 'not_found');
    const theirs = await ok(call(h, 'GET', '/v1/phone/agents', stranger), 200);
    expect(theirs).toEqual({ agents: [], nextCursor: null });
  });
});
