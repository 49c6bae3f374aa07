import { randomUUID } from 'node:crypto';
import { conversationWorkflowId } from '../../workflows/conversationMessages';
import { bearer, createKey, setPlan, signUp, type Account } from '../helpers/factories';
import type { Harness } from '../helpers/harness';

import { error, ok } from '../helpers/responses';
import { createAgent } from '../helpers/runs';
import { startRunStack } from '../helpers/worker';
import { postNotification, startWhatsAppFake, textNotification } from './fake';
import { pollUntil } from '../helpers/poll';

type Headers = Record<string, string>;
type Fake = Awaited<ReturnType<typeof startWhatsAppFake>>;

// WhatsApp conversations end to end (docs/api/whatsapp.md): the Cloud API fake posts signed webhooks in its real
// shape, the engine's workflow takes each turn with a builtin model, and the reply reaches the fake's Graph API.
describe('WhatsApp conversations', () => {
  let h: Harness;
  let stop: () => Promise<void>;
  let fake: Fake;
  let owner: Account;
  let auth: Headers;
  let agentId: string;
  // the fake answers 503 to the calls listed here (by call number), 200 to the others
  const failing = new Set<number>();

  beforeAll(async () => {
    fake = await startWhatsAppFake((n) => (failing.has(n) ? 503 : 200));
    ({ h, stop } = await startRunStack({
      allowPrivateEgress: true,
      whatsapp: { apiUrl: fake.url, apiVersion: 'v21.0' },
    }));
    owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    auth = bearer(await createKey(h, owner, ['whatsapp:read', 'whatsapp:manage', 'agents:write']));
    agentId = (await createAgent(h, auth, {})).id;
  }, 120_000);
  afterAll(async () => {
    await stop?.();
    await fake?.close();
  });

  const phone = () => String(100_000_000_000 + Math.floor(Math.random() * 899_999_999_999));
  const contact = () => `1631555${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`;
  async function newAccount(headers = auth, agent = agentId) {
    const secrets = { accessToken: `EAAG${randomUUID().replace(/-/g, '')}`, appSecret: `app-${randomUUID()}` };
    const account = await ok(
      h.request('/v1/whatsapp/accounts', {
        method: 'POST',
        headers,
        json: { phoneNumberId: phone(), agentId: agent, verifyToken: 'v', ...secrets },
      }),
      201,
    );
    const send = (from: string, messages: Array<{ id: string; text: string }>) =>
      postNotification(h.url, account.id, secrets.appSecret, textNotification(account.phoneNumberId, from, messages));
    return { account, ...secrets, send };
  }
  const callsTo = (phoneNumberId: string) => fake.calls.filter((c) => c.path === `/v21.0/${phoneNumberId}/messages`);
  const acceptedTo = (phoneNumberId: string) => callsTo(phoneNumberId).filter((c) => c.status === 200);
  const conversations = async (accountId: string) =>
    (await ok(h.request(`/v1/whatsapp/conversations?accountId=${accountId}`, { headers: auth }), 200))
      .conversations as Array<{ id: string; waId: string; status: string }>;
  const detail = (id: string) => ok(h.request(`/v1/whatsapp/conversations/${id}`, { headers: auth }), 200);

  it('answers a contact through the Graph API with the account token, one conversation per contact', async () => {
    const { account, accessToken, send } = await newAccount();
    const kerry = contact();
    const res = await send(kerry, [{ id: `wamid.${randomUUID()}`, text: 'Hello there' }]);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: 1 });
    await pollUntil(30_000, () => acceptedTo(account.phoneNumberId).length === 1, Boolean, 'the first reply');
    const [reply] = acceptedTo(account.phoneNumberId);
    expect(reply.authorization).toBe(`Bearer ${accessToken}`);
    expect(reply.body).toMatchObject({ messaging_product: 'whatsapp', to: kerry, type: 'text' });
    expect(reply.body.text?.body).toContain('Hello there');

    const [conversation] = await conversations(account.id);
    expect(conversation).toMatchObject({ accountId: account.id, agentId, waId: kerry, status: 'active' });
    const read = await detail(conversation.id);
    expect(read.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
    expect(read.messages[0]).toMatchObject({
      seq: 1,
      text: 'Hello there',
      messageId: expect.stringMatching(/^wamid\./),
    });
    expect(read.messages[1].text).toBe(reply.body.text?.body);

    // the same contact again: the same conversation; another contact: a conversation of their own
    await send(kerry, [{ id: `wamid.${randomUUID()}`, text: 'Second question' }]);
    await send(contact(), [{ id: `wamid.${randomUUID()}`, text: 'Someone else' }]);
    await pollUntil(30_000, () => acceptedTo(account.phoneNumberId).length === 3, Boolean, 'three replies');
    const listed = await conversations(account.id);
    expect(listed).toHaveLength(2);
    const again = await detail(conversation.id);
    expect(again.messages.map((m: { text: string }) => m.text).filter((_: string, i: number) => i % 2 === 0)).toEqual([
      'Hello there',
      'Second question',
    ]);

    // the conversation is the workflow conversation-<id>, visible in Temporal UI with its search attributes
    const described = await h.temporal.client.workflow.getHandle(conversationWorkflowId(conversation.id)).describe();
    expect(described.searchAttributes).toMatchObject({ SvcWorkspaceId: [owner.workspaceId], SvcAgentId: [agentId] });
  });

  it('processes a redelivered message id once, even when both deliveries arrive together', async () => {
    const { account, send } = await newAccount();
    const from = contact();
    const message = { id: `wamid.${randomUUID()}`, text: 'Only once please' };
    const answers = await Promise.all([send(from, [message]), send(from, [message]), send(from, [message])]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    await pollUntil(30_000, () => acceptedTo(account.phoneNumberId).length >= 1, Boolean, 'the reply');
    expect((await send(from, [message])).status).toBe(200);
    await new Promise((r) => setTimeout(r, 2_000));
    expect(acceptedTo(account.phoneNumberId)).toHaveLength(1);
    const [conversation, ...more] = await conversations(account.id);
    expect(more).toEqual([]);
    const read = await detail(conversation.id);
    expect(read.messages.filter((m: { role: string }) => m.role === 'user')).toHaveLength(1);
  });

  it('retries a reply the Graph API answers 503 twice: exactly one reply accepted, no turn lost', async () => {
    const { account, send } = await newAccount();
    const first = fake.calls.length;
    failing.add(first).add(first + 1);
    await send(contact(), [{ id: `wamid.${randomUUID()}`, text: 'Are you there?' }]);
    await pollUntil(60_000, () => acceptedTo(account.phoneNumberId).length === 1, Boolean, 'the reply after two 503s');
    expect(callsTo(account.phoneNumberId).map((c) => c.status)).toEqual([503, 503, 200]);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(acceptedTo(account.phoneNumberId)).toHaveLength(1);
    const [conversation] = await conversations(account.id);
    const read = await detail(conversation.id);
    expect(read.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
  });

  it('answers 404 for a removed account and ends its conversations', async () => {
    const { account, send } = await newAccount();
    await send(contact(), [{ id: `wamid.${randomUUID()}`, text: 'Hi' }]);
    await pollUntil(30_000, () => acceptedTo(account.phoneNumberId).length === 1, Boolean, 'the reply');
    expect((await h.request(`/v1/whatsapp/accounts/${account.id}`, { method: 'DELETE', headers: auth })).status).toBe(
      204,
    );
    await error(send(contact(), [{ id: `wamid.${randomUUID()}`, text: 'Anyone?' }]), 404, 'not_found');
    const [conversation] = await conversations(account.id);
    expect(conversation).toMatchObject({ status: 'ended' });
    expect((await detail(conversation.id)).endedReason).toBe('account_removed');
  });

  it("answers 404 for another workspace's conversations and needs whatsapp:read", async () => {
    const { account, send } = await newAccount();
    await send(contact(), [{ id: `wamid.${randomUUID()}`, text: 'Private' }]);
    await pollUntil(30_000, () => acceptedTo(account.phoneNumberId).length === 1, Boolean, 'the reply');
    const [conversation] = await conversations(account.id);
    const stranger = await signUp(h);
    const theirs = bearer(await createKey(h, stranger, ['whatsapp:read']));
    await error(h.request(`/v1/whatsapp/conversations/${conversation.id}`, { headers: theirs }), 404, 'not_found');
    await error(h.request(`/v1/whatsapp/conversations?accountId=${account.id}`, { headers: theirs }), 404, 'not_found');
    const listed = await ok(h.request('/v1/whatsapp/conversations', { headers: theirs }), 200);
    expect(listed).toEqual({ conversations: [], nextCursor: null });
    await error(h.request(`/v1/whatsapp/conversations/${randomUUID()}`, { headers: auth }), 404, 'not_found');
    const none = bearer(await createKey(h, owner, ['agents:read']));
    await error(h.request(`/v1/whatsapp/conversations/${conversation.id}`, { headers: none }), 403, 'forbidden');
  });
});
