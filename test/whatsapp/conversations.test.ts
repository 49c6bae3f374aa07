import { randomUUID } from 'node:crypto';
import { conversationWorkflowId } from '../../workflows/conversationMessages';
import { bearer, createKey, setPlan, signUp, type Account } from '../helpers/factories';
import type { Harness } from '../helpers/harness';
import { pollUntil } from '../helpers/poll';
import { error, ok } from '../helpers/responses';
import { createAgent } from '../helpers/runs';
import { startRunStack } from '../helpers/worker';
import { postNotification, replyStatusNotification, startWhatsAppFake, textNotification } from './fake';

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
  // the fake answers 503 to the calls listed in `failing` (by call number), 400 to those in `refusing`, else 200
  const failing = new Set<number>();
  const refusing = new Set<number>();

  beforeAll(async () => {
    fake = await startWhatsAppFake((n) => (failing.has(n) ? 503 : refusing.has(n) ? 400 : 200));
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
    const notify = (payload: Record<string, unknown>) =>
      postNotification(h.url, account.id, secrets.appSecret, payload);
    return { account, ...secrets, send, notify };
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
    // turns run in order: once the reply to a later message is out, a second reply to the first would be too
    await send(from, [{ id: `wamid.${randomUUID()}`, text: 'And then this' }]);
    await pollUntil(30_000, () => acceptedTo(account.phoneNumberId).length >= 2, Boolean, 'the later reply');
    expect(acceptedTo(account.phoneNumberId)).toHaveLength(2);
    const [conversation, ...more] = await conversations(account.id);
    expect(more).toEqual([]);
    const read = await detail(conversation.id);
    const asked = read.messages.filter((m: { role: string }) => m.role === 'user').map((m: { text: string }) => m.text);
    expect(asked).toEqual(['Only once please', 'And then this']);
  });

  it('retries a reply the Graph API answers 503 twice: exactly one reply accepted, no turn lost', async () => {
    const { account, send } = await newAccount();
    const first = fake.calls.length;
    failing.add(first).add(first + 1);
    const from = contact();
    await send(from, [{ id: `wamid.${randomUUID()}`, text: 'Are you there?' }]);
    await pollUntil(60_000, () => acceptedTo(account.phoneNumberId).length === 1, Boolean, 'the reply after two 503s');
    expect(callsTo(account.phoneNumberId).map((c) => c.status)).toEqual([503, 503, 200]);
    // a later message's reply is out only after every earlier turn's: a duplicate would be there by then
    await send(from, [{ id: `wamid.${randomUUID()}`, text: 'Still there?' }]);
    await pollUntil(60_000, () => acceptedTo(account.phoneNumberId).length >= 2, Boolean, 'the later reply');
    expect(acceptedTo(account.phoneNumberId)).toHaveLength(2);
    const [conversation, ...more] = await conversations(account.id);
    expect(more).toEqual([]);
    const read = await detail(conversation.id);
    expect(read.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
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

  it("records each reply's status from Meta's webhooks, keeps the 24-hour window, and redelivers failed replies", async () => {
    const { account, send, notify } = await newAccount();
    const from = contact();
    type Message = { id: string; role: string; status: string | null; error: string | null; messageId: string | null };
    const replyOf = async (conversationId: string, n: number) =>
      ((await detail(conversationId)).messages as Message[]).filter((m) => m.role === 'assistant')[n];
    const redeliver = (conversationId: string, messageId: string) =>
      h.request(`/v1/whatsapp/conversations/${conversationId}/messages/${messageId}/redeliver`, {
        method: 'POST',
        headers: auth,
      });
    // Meta refuses the first reply (4xx): recorded failed with the reason, no retry
    refusing.add(fake.calls.length);
    await send(from, [{ id: `wamid.${randomUUID()}`, text: 'First question' }]);
    const [conversation] = await pollUntil(
      40_000,
      async () => {
        const listed = await conversations(account.id);
        return listed.length === 1 && (await replyOf(listed[0].id, 0))?.status === 'failed' ? listed : [];
      },
      (listed) => listed.length === 1,
    );
    const refused = await replyOf(conversation.id, 0);
    expect(refused).toMatchObject({ status: 'failed', error: 'Graph API answered 400', messageId: null });
    expect(callsTo(account.phoneNumberId).map((c) => c.status)).toEqual([400]);
    // redelivered: sent, with the message id the Graph API answered
    const again = await redeliver(conversation.id, refused.id);
    expect(again.status).toBe(202);
    expect(await again.json()).toEqual({ status: 'sent', error: null });
    const sentCall = acceptedTo(account.phoneNumberId)[0];
    expect(sentCall.body).toMatchObject({ type: 'text', to: from });
    expect(await replyOf(conversation.id, 0)).toMatchObject({ status: 'sent', messageId: sentCall.messageId });
    await error(redeliver(conversation.id, refused.id), 409, 'conflict');
    // Meta's status webhooks move it on; a late one does not move it back
    for (const status of ['delivered', 'read', 'delivered'] as const) {
      expect(
        (await notify(replyStatusNotification(account.phoneNumberId, from, sentCall.messageId!, status))).status,
      ).toBe(200);
    }
    expect(await replyOf(conversation.id, 0)).toMatchObject({ status: 'read', error: null });

    // outside the 24-hour window since the contact's last message: no free-form reply, failed with the reason
    refusing.add(fake.calls.length);
    await send(from, [{ id: `wamid.${randomUUID()}`, text: 'Second question' }]);
    const second = await pollUntil(
      40_000,
      () => replyOf(conversation.id, 1),
      (r) => r?.status === 'failed',
    );
    await h.orm.em
      .fork()
      .execute(
        `update conversation_messages set created_at = now() - interval '25 hours' where conversation_id = ? and role = 'user'`,
        [conversation.id],
      );
    const callsBefore = fake.calls.length;
    const outside = await redeliver(conversation.id, second.id);
    expect(outside.status).toBe(202);
    expect(await outside.json()).toEqual({ status: 'failed', error: expect.stringContaining('24-hour') });
    expect(fake.calls.length).toBe(callsBefore);
    expect(await replyOf(conversation.id, 1)).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('24-hour'),
    });
    // with a template configured, the template goes out instead
    const template = { name: 'follow_up', language: 'en_US' };
    const patched = await ok(
      h.request(`/v1/whatsapp/accounts/${account.id}`, { method: 'PATCH', headers: auth, json: { template } }),
      200,
    );
    expect(patched.template).toEqual(template);
    expect(await (await redeliver(conversation.id, second.id)).json()).toEqual({ status: 'sent', error: null });
    const templateCall = fake.calls[fake.calls.length - 1];
    expect(templateCall.body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: from,
      type: 'template',
      template: { name: 'follow_up', language: { code: 'en_US' } },
    });
    // and Meta may still fail it later: failed, with Meta's error
    await notify(replyStatusNotification(account.phoneNumberId, from, templateCall.messageId!, 'failed'));
    expect(await replyOf(conversation.id, 1)).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('131047 Re-engagement message'),
    });
    // a status for a message of no reply of this account changes nothing
    expect((await notify(replyStatusNotification(account.phoneNumberId, from, 'wamid.unknown', 'read'))).status).toBe(
      200,
    );
    await error(redeliver(conversation.id, randomUUID()), 404, 'not_found');
    const reader = bearer(await createKey(h, owner, ['whatsapp:read']));
    await error(
      h.request(`/v1/whatsapp/conversations/${conversation.id}/messages/${second.id}/redeliver`, {
        method: 'POST',
        headers: reader,
      }),
      403,
      'forbidden',
    );
  }, 120_000);
});
