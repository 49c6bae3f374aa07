import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import type { Harness } from '../helpers/harness';
import { ok } from '../helpers/responses';
import { createRun, waitForStatus } from '../helpers/runs';
import { startRunStack } from '../helpers/worker';
import { call, createNumber, createPhoneAgent } from './helpers';
import { callback, gatherAction, said, startTelephony } from './telephony';
import { pollUntil } from '../helpers/poll';

type Headers = Record<string, string>;

/** Waits for `probe` to answer something (not undefined). */
async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 40_000): Promise<T> {
  return (await pollUntil(timeoutMs, probe, (value) => value !== undefined, what)) as T;
}

// Calls end to end with a real worker: the provider's signed callbacks in, the agent's replies as XML out,
// each utterance one conversation turn, hang-up ending it (docs/api/phone.md). The builtin echo model makes
// the agent's side deterministic: it answers with the caller's words.
describe('phone calls', () => {
  let h: Harness;
  let stop: () => Promise<void>;
  let auth: Headers;
  let secret = '';
  let provider: Awaited<ReturnType<typeof startTelephony>>;
  beforeAll(async () => {
    let api = '';
    provider = await startTelephony({
      utterances: ['Is Tuesday free?'],
      secret: () => secret,
      // the provider reaches the service's public URL, which is the test's API
      reach: (url) => {
        const u = new URL(url);
        return `${api}${u.pathname}${u.search}`;
      },
    });
    ({ h, stop } = await startRunStack({ twilioApiUrl: provider.url }));
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
    const url = `${h.url}/hooks/phone/${number.id}`;
    const base = { CallSid: 'CAinbound0001', AccountSid: 'AC1', From: '+14155550142', To: number.e164 };
    const greeting = await callback(url, number.webhookSecret, { ...base, CallStatus: 'ringing' });
    expect(greeting).toEqual({ status: 200, body: expect.stringContaining('<Say') });
    expect(greeting.body).toContain('<Say voice="Polly.Joanna">');
    expect(said(greeting.body)).toEqual(['Hello, you have reached Front desk. How can I help?']);
    expect(greeting.body).toContain('<Gather input="speech"');
    const action = gatherAction(greeting.body)!;
    expect(action).toBe(url);
    const words = { ...base, CallStatus: 'in-progress', SpeechResult: 'I need an appointment', SequenceNumber: '1' };
    const first = await callback(action, number.webhookSecret, words);
    expect(first.status).toBe(200);
    expect(said(first.body)).toEqual(['I need an appointment']);
    // the provider repeats a callback: answered from the first, no second turn
    const again = await callback(action, number.webhookSecret, words);
    expect(again).toEqual(first);
    // and repeats it at once, in parallel: still one turn
    const second = { ...words, SpeechResult: 'Tuesday please', SequenceNumber: '2' };
    const pair = await Promise.all([
      callback(action, number.webhookSecret, second),
      callback(action, number.webhookSecret, second),
    ]);
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
    const bye = await callback(url, number.webhookSecret, { ...base, CallStatus: 'completed', CallDuration: '37' });
    expect(bye.body).toMatch(/<Response><\/Response>$/);
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
    // the old secret stops verifying at once after a rotation
    await ok(call(h, 'POST', `/v1/phone/numbers/${number.id}/rotate-secret`, auth), 200);
    expect(
      (await callback(url, number.webhookSecret, { ...base, CallSid: 'CAinbound0002', CallStatus: 'ringing' })).status,
    ).toBe(403);
  }, 60_000);

  it('places an outbound call that the provider plays through the callbacks', async () => {
    const agent = await createPhoneAgent(h, auth, { name: 'Reminders' });
    const number = await createNumber(h, auth, agent.id);
    secret = number.webhookSecret;
    const placed = await ok(
      call(h, 'POST', '/v1/phone/calls', auth, { numberId: number.id, to: '+14155550177', purpose: 'Confirm Tuesday' }),
      201,
    );
    await until('the provider to be asked', async () => (provider.requests.length > 0 ? true : undefined));
    await until('the call to be played', async () => (provider.answers.length >= 3 ? true : undefined));
    await provider.settled();
    expect(provider.answers.map((a) => a.status)).toEqual([200, 200, 200]);
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
