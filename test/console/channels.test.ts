/**
 * The console's channel areas end to end (docs/console.md): Apps, Phone, WhatsApp and Tutor, in a real Chromium
 * against the real service and worker. Every peer is a real server on 127.0.0.1: visitors post the public form,
 * Twilio's callbacks are signed with the number's Auth Token by Twilio's own library, the WhatsApp Cloud API fake
 * signs its webhook, a DNS server answers the domain's TXT record, and an OpenAI-compatible server plays the booking
 * agent's model (its tool calls are real calendar tools of the service).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { User } from '../../db/entities/User';
import { completion, json, startChatServer, type Hit } from '../domain/models/chatServer';
import { startDnsServer, type DnsServer } from '../helpers/dnsServer';
import { addMember, setPlan, signUp } from '../helpers/factories';
import { pollUntil } from '../helpers/poll';
import { uniqueE164 } from '../phone/helpers';
import { callback, gatherAction, said } from '../phone/telephony';
import { postNotification, startWhatsAppFake, textNotification } from '../whatsapp/fake';
import { checkPage } from './browser';
import { startConsole, type ConsoleSession } from './consoleSession';

jest.setTimeout(120_000);

let s: ConsoleSession;
let dns: DnsServer;
let chat: Awaited<ReturnType<typeof startChatServer>>;
let wa: Awaited<ReturnType<typeof startWhatsAppFake>>;
let agentName = '';

// Monday 7 January 2030: the week the booking agent books in (a fixed week, so the grid's place is known)
const WEEK = '2030-01-07';
const CALLER = '+14155550142';

/**
 * The booking agent's model: it asks for the week's free slots, books the first one for the caller, then tells
 * them, as a model with these tools would; the service runs the tools.
 */
function bookingModel(hit: Hit, res: ServerResponse) {
  const messages = hit.body.messages as Array<{ role: string; content: string | null }>;
  const results = messages.filter((m) => m.role === 'tool').map((m) => JSON.parse(m.content ?? 'null'));
  const call = (id: string, name: string, args: unknown) =>
    json(
      res,
      200,
      completion(
        { content: null, tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }] },
        { prompt_tokens: 50, completion_tokens: 10 },
        'tool_calls',
      ),
    );
  if (results.length === 0) return call('call_free', 'calendar_free_slots', { from: WEEK, to: '2030-01-13' });
  if (results.length === 1) {
    return call('call_book', 'calendar_book', {
      start: results[0].slots[0].start,
      name: 'Ada Lovelace',
      phone: CALLER,
    });
  }
  const booked = results[1] as { bookingId?: string; start?: string };
  const content = booked.bookingId ? `You are booked for ${booked.start}, Ada.` : 'Sorry, that slot is taken.';
  return json(res, 200, completion({ content }, { prompt_tokens: 60, completion_tokens: 12 }));
}

beforeAll(async () => {
  dns = await startDnsServer({});
  chat = await startChatServer(bookingModel);
  wa = await startWhatsAppFake();
  s = await startConsole({
    dnsServers: [dns.address],
    allowPrivateEgress: true,
    whatsapp: { apiUrl: wa.url, apiVersion: 'v21.0' },
    openai: {
      baseUrl: `${chat.url}/v1/`,
      models: [{ name: 'booker', inputPerMTokUsd: 1, outputPerMTokUsd: 2 }],
      timeoutMs: 10_000,
    },
  });
  // a paying, verified workspace: the runs below are more than an unverified sign-up may start
  await setPlan(s.h, s.account.workspaceId, 'scale');
  await s.h.orm.em.fork().nativeUpdate(User, { id: s.account.userId }, { emailVerifiedAt: new Date() });
  agentName = `Echo helper ${randomUUID().slice(0, 6)}`;
  const res = await s.asSession('/v1/agents', { method: 'POST', json: { name: agentName } });
  expect(res.status).toBe(201);
}, 180_000);

afterAll(async () => {
  await s?.stop();
  await chat?.close();
  await wa?.close();
  await dns?.close();
});

describe('console channels', () => {
  it('builds an app, publishes it, a visitor submits the form, and the run and usage show; a domain is verified', async () => {
    const { page } = s;
    await s.go('/apps');
    await page.getByText('No apps yet.').waitFor();
    await checkPage(page, 'apps-list');

    const slug = `explainer-${randomBytes(4).toString('hex')}`;
    await page.getByLabel('Name', { exact: true }).fill('Topic explainer');
    await page.getByLabel('Address (slug): /apps/…').fill(slug);
    await page.getByLabel('Agent that answers').selectOption({ label: agentName });
    await page.getByLabel('Field 1 label').fill('Topic');
    await page.getByLabel("Field 1 name (the run input's key)").fill('topic');
    await page.getByLabel('Field 1 required').check();
    await page.getByRole('button', { name: 'Add a field' }).click();
    await page.getByLabel('Field 2 label').fill('Tone');
    await page.getByLabel("Field 2 name (the run input's key)").fill('tone');
    await page.getByLabel('Field 2 type').selectOption('select');
    await page.getByLabel('Field 2 options (one per line)').fill('plain\nfun');
    await checkPage(page, 'apps-new');
    await page.getByRole('button', { name: 'Create app' }).click();

    await page.getByRole('heading', { level: 1, name: /Topic explainer/ }).waitFor();
    const appId = page.url().split('/apps/')[1];
    await page.getByText('A draft is not public yet').waitFor();
    // the preview shows the form as a visitor will see it
    await page.getByText('Preview: Topic explainer').waitFor();
    await page.getByRole('button', { name: 'Publish' }).click();
    const link = page.getByRole('link', { name: `${s.h.url}/apps/${slug}` });
    await link.waitFor();

    // a visitor, with no session, fills the public form and follows the run's status page
    const visitor = await s.browser.newContext();
    const form = await visitor.newPage();
    await form.goto(`${s.h.url}/apps/${slug}`);
    await form.fill('#field-topic', 'tides');
    await form.selectOption('#field-tone', 'fun');
    await form.getByRole('button', { name: 'Run' }).click();
    await form.locator('#status[data-status="succeeded"]').waitFor({ timeout: 30_000 });
    await visitor.close();

    // the owner finds the run among the agent's runs, its input being the visitor's answers
    await page.getByRole('link', { name: 'Runs of this agent' }).click();
    await page
      .getByRole('link', { name: /^[0-9a-f]{8}/ })
      .first()
      .click();
    await page.getByText('"topic": "tides"').first().waitFor();
    await page.goBack();
    await page.goBack();
    await page.getByTestId('app-usage-runs').filter({ hasText: /^1$/ }).waitFor();

    // the form builder changes the published form
    await page.getByRole('button', { name: 'Add a field' }).last().click();
    await page.getByLabel('Field 3 label').fill('Details');
    await page.getByLabel("Field 3 name (the run input's key)").fill('details');
    await page.getByLabel('Field 3 type').selectOption('textarea');
    await page.getByRole('button', { name: 'Save form' }).click();
    await page.getByText('Form saved.').waitFor();
    const served = await (await fetch(`${s.h.url}/apps/${slug}`)).text();
    expect(served).toContain('field-details');

    // a custom domain: the TXT record to add, a failed check, then the record in DNS and a verified domain
    const host = `forms-${randomBytes(3).toString('hex')}.example.com`;
    await page.getByLabel('Hostname').fill(host);
    await page.getByRole('button', { name: 'Add domain' }).click();
    const value = (await page.getByTestId('txt-value').textContent())!;
    expect(await page.getByTestId('txt-name').textContent()).toBe(`_svc-verify.${host}`);
    await page.getByRole('button', { name: `Verify ${host}` }).click();
    await page.getByText('Not verified yet').waitFor();
    dns.table[`_svc-verify.${host}`] = { TXT: [value] };
    await page.getByRole('button', { name: `Verify ${host}` }).click();
    await page.getByTestId('domain').getByText('verified', { exact: true }).waitFor();
    await checkPage(page, 'apps-app');

    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByText('Paused: the link answers').waitFor();
    expect((await fetch(`${s.h.url}/apps/${slug}`)).status).toBe(404);
    const app = await (await s.asSession(`/v1/apps/${appId}`)).json();
    expect(app).toMatchObject({ status: 'paused', domains: [{ hostname: host, status: 'verified' }] });
  });

  it('connects a number, books through a call, and shows the transcript and the booking in the week', async () => {
    const { page } = s;
    // weekly hours first: Monday 09:00 to 17:00 in UTC, slots of 30 minutes
    await s.go(`/phone/calendar?week=${WEEK}`);
    await page.getByText('No weekly hours yet').waitFor();
    await page.getByRole('button', { name: 'Add opening hours' }).click();
    await page.getByRole('button', { name: 'Save hours' }).click();
    const monday = page.getByTestId(`day-${WEEK}`);
    await monday.getByText('16 free slots: 09:00 to 16:30').waitFor();

    await page.getByRole('link', { name: 'Numbers and agents' }).click();
    await page.getByText('No numbers connected yet.').waitFor();
    await checkPage(page, 'phone-numbers');
    await page.getByLabel('Name', { exact: true }).fill('Booking desk');
    await page.getByLabel('Kind').selectOption('phone-booking');
    await page.getByLabel('Model').selectOption('openai/booker');
    await page.getByRole('button', { name: 'Create phone agent' }).click();
    await page.getByText('Agent Booking desk created.').waitFor();

    const e164 = uniqueE164();
    const authToken = `tw-${randomBytes(12).toString('hex')}`;
    await page.getByLabel('Number (E.164)').fill(e164);
    await page.getByLabel('Phone agent that answers').selectOption({ label: 'Booking desk' });
    await page.getByLabel('Account SID').fill('AC0123456789abcdef');
    await page.getByLabel('Auth Token', { exact: true }).fill(authToken);
    await page.getByRole('button', { name: 'Connect number' }).click();
    const callbackUrl = await page.getByLabel('Callback URL', { exact: true }).inputValue();
    expect(callbackUrl).toMatch(new RegExp(`^${s.h.url}/hooks/phone/[0-9a-f-]{36}/[A-Za-z0-9_-]{43}$`));
    await page.getByTestId('number').getByText(e164).waitFor();
    await checkPage(page, 'phone-number-connected');
    // the credentials are write-only: the page holds the token nowhere once sent
    expect(await page.content()).not.toContain(authToken);

    // the call, as Twilio plays it: the greeting, the caller's words (one turn: free slots, a booking), hang-up
    const base = {
      CallSid: `CA${randomBytes(16).toString('hex')}`,
      AccountSid: 'AC0123456789abcdef',
      From: CALLER,
      To: e164,
    };
    const greeting = await callback(callbackUrl, authToken, { ...base, CallStatus: 'ringing' });
    expect(greeting.status).toBe(200);
    const answer = await callback(gatherAction(greeting.body)!, authToken, {
      ...base,
      CallStatus: 'in-progress',
      SpeechResult: 'I would like an appointment on Monday',
      SequenceNumber: '1',
    });
    expect(said(answer.body)).toEqual(['You are booked for 2030-01-07T09:00:00.000Z, Ada.']);
    const bye = await callback(`${callbackUrl}/status`, authToken, {
      ...base,
      CallStatus: 'completed',
      CallDuration: '95',
    });
    expect(bye.status).toBe(200);

    await page.getByRole('navigation', { name: 'Phone' }).getByRole('link', { name: 'Calls' }).click();
    const row = page.getByTestId('call').filter({ hasText: CALLER });
    await row.getByText('Completed').waitFor();
    await checkPage(page, 'phone-calls');
    await row.getByRole('link').click();
    await page.getByTestId('call-duration').filter({ hasText: '1 min 35 s' }).waitFor();
    const transcript = page.getByRole('list', { name: 'Transcript' });
    await transcript.getByText('I would like an appointment on Monday').waitFor();
    await transcript.getByText('You are booked for 2030-01-07T09:00:00.000Z, Ada.').waitFor();
    expect(await page.getByTestId('call-cost').textContent()).toMatch(/^\$0\.\d+/);
    await checkPage(page, 'phone-call');

    await s.go(`/phone/calendar?week=${WEEK}`);
    const booking = monday.getByTestId('booking');
    await booking.getByText('Ada Lovelace').waitFor();
    expect(await booking.textContent()).toContain('09:00–09:30');
    await booking.getByRole('link', { name: 'Booked during a call' }).waitFor();
    await monday.getByText('15 free slots: 09:30 to 16:30').waitFor();
    await checkPage(page, 'phone-calendar');
  });

  it('connects a WhatsApp number and shows a contact thread with the reply as delivered to the Graph API', async () => {
    const { page } = s;
    await s.go('/whatsapp');
    await page.getByText('No WhatsApp number connected yet.').waitFor();
    await checkPage(page, 'whatsapp');
    const phoneNumberId = String(100_000_000_000 + Math.floor(Math.random() * 899_999_999_999));
    const accessToken = `EAAG${randomBytes(16).toString('hex')}`;
    const appSecret = `app-${randomUUID()}`;
    await page.getByLabel('Phone number ID (from API Setup)').fill(phoneNumberId);
    await page.getByLabel('Agent that answers').selectOption({ label: agentName });
    await page.getByLabel('Access token').fill(accessToken);
    await page.getByLabel('App secret').fill(appSecret);
    await page.getByLabel(/^Verify token/).fill('verify-me');
    await page.getByRole('button', { name: 'Connect number' }).click();
    await page.getByText('Connected. In Meta').waitFor();
    const webhookUrl = (await page.locator('p.notice code').textContent())!;
    const accountId = webhookUrl.split('/hooks/whatsapp/')[1];
    expect(accountId).toMatch(/^[0-9a-f-]{36}$/);
    const html = await page.content();
    expect(html).not.toContain(accessToken);
    expect(html).not.toContain(appSecret);

    // a contact writes, as the Cloud API posts it: signed with the app secret
    const contact = `1631555${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`;
    const sent = await postNotification(
      s.h.url,
      accountId,
      appSecret,
      textNotification(phoneNumberId, contact, [{ id: `wamid.${randomUUID()}`, text: 'Are you open on Sunday?' }]),
    );
    expect(sent.status).toBe(200);
    await pollUntil(
      30_000,
      () => wa.accepted().length,
      (n) => n === 1,
      'the reply at the Graph API',
    );

    const thread = page.getByTestId('conversation').filter({ hasText: `+${contact}` });
    await thread.getByRole('link').click({ timeout: 30_000 });
    const messages = page.getByRole('list', { name: 'Messages' });
    await messages.locator('.chat-user').getByText('Are you open on Sunday?').waitFor();
    await messages
      .locator('.chat-assistant')
      .getByText(/Are you open on Sunday\?/)
      .waitFor();
    await page
      .getByTestId('reply-status')
      .filter({ hasText: /^sent$/ })
      .waitFor({ timeout: 30_000 });
    await checkPage(page, 'whatsapp-thread');
  });

  it('starts a tutor session and exchanges a message with the agent', async () => {
    const { page } = s;
    await s.go('/tutor');
    await page.getByText('No tutor sessions yet.').waitFor();
    await checkPage(page, 'tutor');
    await page.getByLabel('Agent', { exact: true }).selectOption({ label: agentName });
    await page.getByLabel('Topic', { exact: true }).fill('Tides');
    await page.getByRole('button', { name: 'Start session' }).click();
    await page.getByText('No messages yet').waitFor();
    await page.getByLabel('Your message').fill('Why are there two tides a day?');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const messages = page.getByRole('list', { name: 'Messages' });
    // the echo agent answers with the message it was given
    await messages
      .locator('.chat-assistant')
      .getByText(/Why are there two tides a day\?/)
      .waitFor({ timeout: 30_000 });
    expect(await messages.locator('.chat-user').count()).toBe(1);
    await checkPage(page, 'tutor-session');
    await page.getByRole('button', { name: 'End session' }).click();
    await page.getByText('This session has ended (request).').waitFor();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tutor' }).click();
    await page.getByRole('link', { name: 'Tides' }).waitFor();
  });

  it('shows a member the channels they may read, without the forms their role may not use', async () => {
    const member = await signUp(s.h, { name: 'Member' });
    await addMember(s.h, member.userId, s.account.workspaceId, 'member');
    const context = await s.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const [name, value] = member.cookie.split('=');
    await context.addCookies([{ name, value, url: s.h.url, httpOnly: true, sameSite: 'Lax' }]);
    // the owner's workspace, chosen as the header's switcher would remember it
    await context.addInitScript(`localStorage.setItem('svc.workspaceId', ${JSON.stringify(s.account.workspaceId)})`);
    const page = await context.newPage();
    await page.goto(`${s.h.url}/console/phone`);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Phone' }).waitFor();
    await nav.getByRole('link', { name: 'WhatsApp' }).waitFor();
    await nav.getByRole('link', { name: 'Tutor' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Apps' }).count()).toBe(0);
    // the owner's number is listed, with nothing to change it
    await page.getByTestId('number').first().waitFor();
    expect(await page.getByRole('button', { name: 'Connect number' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Remove' }).count()).toBe(0);
    await page.goto(`${s.h.url}/console/phone/calendar?week=${WEEK}`);
    await page.getByTestId(`day-${WEEK}`).getByText('Ada Lovelace').waitFor();
    expect(await page.getByRole('button', { name: 'Save hours' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Cancel booking/ }).count()).toBe(0);
    await page.goto(`${s.h.url}/console/whatsapp`);
    await page.getByTestId('wa-account').first().waitFor();
    expect(await page.getByRole('button', { name: 'Connect number' }).count()).toBe(0);
    await context.close();
  });
});
