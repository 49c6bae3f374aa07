import twilio from 'twilio';
import { runAdmin } from '../../scripts/admin';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import type { Harness } from '../helpers/harness';
import { ok } from '../helpers/responses';
import { createRun, waitForStatus } from '../helpers/runs';
import { startRunStack } from '../helpers/worker';
import { call, createNumber, createPhoneAgent, CREDENTIALS } from './helpers';
import { callback, gatherAction, said, startTelephony } from './telephony';
import { pollUntil } from '../helpers/poll';

type Headers = Record<string, string>;

/** Waits for `probe` to answer something (not undefined). */
async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 40_000): Promise<T> {
  return (await pollUntil(timeoutMs, probe, (value) => value !== undefined, what)) as T;
}

// Calls end to end with a real worker: Twilio's callbacks in (signed by Twilio's own library with the Auth
// Token), the agent's replies as TwiML out, each utterance one conversation turn, hang-up ending it
// (docs/api/phone.md). The builtin echo model makes the agent's side deterministic: it answers with the
// caller's words.

/** The TwiML Twilio's library builds for a reply and the next `<Gather>`: what the service must answer. */
function expectedReply(words: string, action: string): string {
  const response = new twilio.twiml.VoiceResponse();
  response.say({ voice: 'Polly.Joanna' }, words);
  response.gather({ input: ['speech'], action, method: 'POST', speechTimeout: 'auto', actionOnEmptyResult: true });
  return response.toString();
}
describe('phone calls', () => {
  let h: Harness;
  let stop: () => Promise<void>;
  let auth: Headers;
  let provider: Awaited<ReturnType<typeof startTelephony>>;
  beforeAll(async () => {
    let api = '';
    provider = await startTelephony({
      utterances: ['Is Tuesday free?'],
      ...CREDENTIALS,
      // the provider reaches the service's public URL, which is the test's API
      reach: (url) => {
        const u = new URL(url);
        return `${api}${u.pathname}${u.search}`;
      },
    });
    ({ h, stop } = await startRunStack({ twilioApiUrl: provider.url, allowPrivateEgress: true }));
    api = h.url;
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    auth = bearer(
      await createKey(h, owner, [
        'phone:read',
        'phone:manage',
        'agents:read',
        'agents:write',
        'runs:read',
        'runs:write',
      ]),
    );
  }, 120_000);
  afterAll(async () => {
    await provider.close();
    await stop();
  });

  it('answers an inbound call with the agent, once per message, and records transcript, duration and cost', async () => {
    const agent = await createPhoneAgent(h, auth, { name: 'Front desk' });
    const number = await createNumber(h, auth, agent.id);
    const url: string = number.callbackUrl;
    expect(url).toMatch(new RegExp(`^${h.url}/hooks/phone/${number.id}/[A-Za-z0-9_-]{43}$`));
    const token = CREDENTIALS.authToken;
    const base = {
      CallSid: 'CAinbound0001',
      AccountSid: CREDENTIALS.accountSid,
      From: '+14155550142',
      To: number.e164,
    };
    const greeting = await callback(url, token, { ...base, CallStatus: 'ringing' });
    expect(greeting).toEqual({
      status: 200,
      body: expectedReply('Hello, you have reached Front desk. How can I help?', url),
    });
    const action = gatherAction(greeting.body)!;
    expect(action).toBe(url);
    // silence: Twilio posts the <Gather> action without SpeechResult, and the caller is asked again
    const silence = await callback(action, token, { ...base, CallStatus: 'in-progress' });
    expect(silence.body).toBe(expectedReply('Sorry, I did not catch that. Could you say it again?', url));
    const words = { ...base, CallStatus: 'in-progress', SpeechResult: 'I need an appointment', SequenceNumber: '1' };
    const first = await callback(action, token, words);
    expect(first).toEqual({ status: 200, body: expectedReply('I need an appointment', url) });
    // Twilio repeats a callback: answered from the first, no second turn
    const again = await callback(action, token, words);
    expect(again).toEqual(first);
    // and repeats it at once, in parallel: still one turn
    const second = { ...words, SpeechResult: 'Tuesday please', SequenceNumber: '2' };
    const pair = await Promise.all([callback(action, token, second), callback(action, token, second)]);
    expect(pair.map((a) => said(a.body))).toEqual([['Tuesday please'], ['Tuesday please']]);
    // a body that is not a form is refused
    const json = await fetch(action, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(json.status).toBe(415);
    const { calls } = await ok(call(h, 'GET', `/v1/phone/calls?numberId=${number.id}`, auth), 200);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      direction: 'inbound',
      from: '+14155550142',
      to: number.e164,
      status: 'in_progress',
    });
    // the call's end comes as Twilio's status callback, on the callback URL's /status
    const bye = await callback(`${url}/status`, token, { ...base, CallStatus: 'completed', CallDuration: '37' });
    expect(bye).toEqual({ status: 200, body: new twilio.twiml.VoiceResponse().toString() });
    const done = await ok(call(h, 'GET', `/v1/phone/calls/${calls[0].id}`, auth), 200);
    expect(done).toMatchObject({ status: 'completed', durationSec: 37, endedAt: expect.any(String) });
    expect(done.transcript.map((t: { role: string; text: string }) => [t.role, t.text])).toEqual([
      ['user', 'I need an appointment'],
      ['assistant', 'I need an appointment'],
      ['user', 'Tuesday please'],
      ['assistant', 'Tuesday please'],
    ]);
    // two turns, two runs at the builtin model's price
    expect(done.costUsd).toBeCloseTo(0.002, 6);
    // after a rotation the old URL answers 404 at once, the new one is signed and answered
    const rotated = await ok(call(h, 'POST', `/v1/phone/numbers/${number.id}/rotate-secret`, auth), 200);
    const next = { ...base, CallSid: 'CAinbound0002', CallStatus: 'ringing' };
    expect((await callback(url, token, next)).status).toBe(404);
    expect((await callback(rotated.callbackUrl, token, next)).status).toBe(200);
  }, 60_000);

  it('says goodbye and hangs up when the workspace has no credit left for a turn', async () => {
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    const key = bearer(await createKey(h, owner, ['phone:read', 'phone:manage', 'agents:read', 'agents:write']));
    const agent = await createPhoneAgent(h, key, { name: 'Front desk' });
    const number = await createNumber(h, key, agent.id);
    await runAdmin(h.orm, ['credits:set', owner.workspaceId, '0']);
    const base = { CallSid: 'CAbroke0001', AccountSid: CREDENTIALS.accountSid, From: '+14155550143', To: number.e164 };
    const greeting = await callback(number.callbackUrl, CREDENTIALS.authToken, { ...base, CallStatus: 'ringing' });
    expect(greeting.status).toBe(200);
    const words = { ...base, CallStatus: 'in-progress', SpeechResult: 'Hello?', SequenceNumber: '1' };
    const answer = await callback(number.callbackUrl, CREDENTIALS.authToken, words);
    const expected = new twilio.twiml.VoiceResponse();
    expected.say(
      { voice: 'Polly.Joanna' },
      'Sorry, we cannot continue this call right now. Please call again later. Goodbye.',
    );
    expected.hangup();
    expect(answer).toEqual({ status: 200, body: expected.toString() });
  }, 60_000);

  it('places an outbound call that the provider plays through the callbacks', async () => {
    const agent = await createPhoneAgent(h, auth, { name: 'Reminders' });
    const number = await createNumber(h, auth, agent.id);
    const placed = await ok(
      call(h, 'POST', '/v1/phone/calls', auth, { numberId: number.id, to: '+14155550177', purpose: 'Confirm Tuesday' }),
      201,
    );
    await until('the provider to be asked', async () => (provider.requests.length > 0 ? true : undefined));
    await until('the call to be played', async () => (provider.statusAnswers.length >= 4 ? true : undefined));
    await provider.settled();
    expect(provider.answers.map((a) => a.status)).toEqual([200, 200]);
    expect(provider.statusAnswers).toEqual([200, 200, 200, 200]);
    expect(said(provider.answers[0].body)).toEqual(['Hello, this is Reminders.']);
    expect(said(provider.answers[1].body)).toEqual(['Is Tuesday free?']);
    const done = await ok(call(h, 'GET', `/v1/phone/calls/${placed.id}`, auth), 200);
    expect(done).toMatchObject({
      direction: 'outbound',
      status: 'completed',
      durationSec: 42,
      purpose: 'Confirm Tuesday',
    });
    expect(done.transcript).toHaveLength(2);
    expect(done.costUsd).toBeGreaterThan(0);
  }, 60_000);

  it('books one slot when parallel runs of a booking agent ask for it', async () => {
    await ok(
      call(h, 'PUT', '/v1/phone/calendar', auth, {
        timezone: 'UTC',
        weeklyHours: [{ day: 'wed', start: '09:00', end: '10:00' }],
        slotMinutes: 30,
      }),
      200,
    );
    const agent = await createPhoneAgent(h, auth, { presetId: 'phone-booking' });
    const start = '2030-01-09T09:30:00.000Z';
    const script = [{ tool: 'calendar_book', args: { start, name: 'Ada' } }];
    const runs = await Promise.all(
      Array.from({ length: 4 }, () => createRun(h, auth, { agentId: agent.id, input: { script } })),
    );
    const finished = await Promise.all(runs.map((r) => waitForStatus(h, auth, r.id, ['succeeded', 'failed'])));
    expect(finished.map((r) => r.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded']);
    const results = await Promise.all(
      runs.map(async (r) => {
        const { steps } = await ok(call(h, 'GET', `/v1/runs/${r.id}/steps`, auth), 200);
        return JSON.parse(steps.find((s: { type: string }) => s.type === 'tool').detail.result);
      }),
    );
    expect(results.filter((r) => r.bookingId)).toHaveLength(1);
    expect(results.filter((r) => r.error?.code === 'calendar.slot_taken')).toHaveLength(3);
    const cal = await ok(call(h, 'GET', '/v1/phone/calendar?from=2030-01-09&to=2030-01-09', auth), 200);
    expect(cal.bookings).toEqual([expect.objectContaining({ start, name: 'Ada', callId: null })]);
    expect(cal.slots).toEqual([{ start: '2030-01-09T09:00:00.000Z', end: '2030-01-09T09:30:00.000Z' }]);
  }, 60_000);
});
