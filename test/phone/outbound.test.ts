import { PhoneCall } from '../../db/entities/PhoneCall';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import type { Harness } from '../helpers/harness';
import { error, ok } from '../helpers/responses';
import { startRunStack } from '../helpers/worker';
import { call, createNumber, createPhoneAgent, CREDENTIALS } from './helpers';
import { libraryCallRequest, startTelephony } from './telephony';
import { pollUntil } from '../helpers/poll';

type Headers = Record<string, string>;

/** Waits for `probe` to answer something (not undefined). */
async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 40_000): Promise<T> {
  return (await pollUntil(timeoutMs, probe, (value) => value !== undefined, what)) as T;
}

// Outbound calls through Twilio's REST API, placed by the workflow `phone-call-<id>` with retries
// (docs/api/phone.md#outbound-calls), against a fake of Twilio on 127.0.0.1 that checks path, auth and form
// as Twilio does; the request is compared with the one Twilio's own library builds.
describe('outbound phone calls', () => {
  let h: Harness;
  let stop: () => Promise<void>;
  let manager: Headers;
  const flaky = { failFirst: 2, silent: true, ...CREDENTIALS };
  let provider: Awaited<ReturnType<typeof startTelephony>>;
  beforeAll(async () => {
    provider = await startTelephony(flaky);
    ({ h, stop } = await startRunStack({ twilioApiUrl: provider.url, allowPrivateEgress: true }));
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    manager = bearer(await createKey(h, owner, ['phone:read', 'phone:manage', 'agents:read', 'agents:write']));
  }, 120_000);
  afterAll(async () => {
    await provider.close();
    await stop();
  });

  const sidOf = async (id: string) => (await h.orm.em.fork().findOneOrFail(PhoneCall, id)).providerCallSid ?? undefined;

  it('retries a provider answering 5xx until it takes the call', async () => {
    const agent = await createPhoneAgent(h, manager);
    const number = await createNumber(h, manager, agent.id);
    const placed = await ok(
      call(h, 'POST', '/v1/phone/calls', manager, {
        numberId: number.id,
        to: '+14155550199',
        purpose: 'Remind of the appointment',
      }),
      201,
    );
    expect(placed).toMatchObject({
      numberId: number.id,
      direction: 'outbound',
      from: number.e164,
      to: '+14155550199',
      status: 'ringing',
      purpose: 'Remind of the appointment',
      transcript: [],
      durationSec: null,
      costUsd: 0,
    });
    const sid = await until('the call sid', () => sidOf(placed.id));
    expect(sid).toMatch(/^CA/);
    expect(provider.requests).toHaveLength(3);
    const last = provider.requests[2];
    expect(last.contentType).toBe('application/x-www-form-urlencoded');
    // the call's own callback URL (its own token, and its id), and the /status of it for status changes
    const voiceUrl = last.form.Url[0];
    expect(voiceUrl).toMatch(
      new RegExp(`^${h.config.publicUrl}/hooks/phone/${number.id}/[A-Za-z0-9_-]{43}\\?callId=${placed.id}$`),
    );
    expect(voiceUrl.startsWith(number.callbackUrl)).toBe(false);
    const statusUrl = voiceUrl.replace('?', '/status?');
    // exactly the request Twilio's library makes for the same call
    const library = await libraryCallRequest(CREDENTIALS.accountSid, CREDENTIALS.authToken, {
      to: '+14155550199',
      from: number.e164,
      url: voiceUrl,
      method: 'POST',
      statusCallback: statusUrl,
      statusCallbackMethod: 'POST',
      statusCallbackEvent: ['initiated', 'ringing', 'answered', 'completed'],
    });
    expect(library.method).toBe('POST');
    expect(last.path).toBe(library.path);
    expect(last.accountSid).toBe(library.username);
    expect(last.authorization).toBe(
      `Basic ${Buffer.from(`${library.username}:${library.password}`).toString('base64')}`,
    );
    expect(last.form).toEqual(library.form);
    expect(h.logs.join('\n')).not.toContain(CREDENTIALS.authToken);
    const { calls } = await ok(call(h, 'GET', `/v1/phone/calls?numberId=${number.id}`, manager), 200);
    expect(calls.map((c: { id: string }) => c.id)).toEqual([placed.id]);
  }, 60_000);

  it('fails the call when the provider never takes it, and refuses bad requests', async () => {
    const down = await startTelephony({ failFirst: 1000, silent: true, ...CREDENTIALS });
    const { h: h2, stop: stop2 } = await startRunStack({ twilioApiUrl: down.url, allowPrivateEgress: true });
    try {
      const owner = await signUp(h2);
      await setPlan(h2, owner.workspaceId, 'scale');
      const auth = bearer(await createKey(h2, owner, ['phone:read', 'phone:manage', 'agents:read', 'agents:write']));
      const agent = await createPhoneAgent(h2, auth);
      const number = await createNumber(h2, auth, agent.id);
      const placed = await ok(
        call(h2, 'POST', '/v1/phone/calls', auth, { numberId: number.id, to: '+14155550198' }),
        201,
      );
      const failed = await until('the failed call', async () => {
        const c = await ok(call(h2, 'GET', `/v1/phone/calls/${placed.id}`, auth), 200);
        return c.status === 'failed' ? c : undefined;
      });
      expect(failed.endedAt).not.toBeNull();
      expect(down.requests).toHaveLength(5);
      await error(
        call(h2, 'POST', '/v1/phone/calls', auth, {
          numberId: '00000000-0000-4000-8000-000000000000',
          to: '+14155550198',
        }),
        404,
        'not_found',
      );
      await error(
        call(h2, 'POST', '/v1/phone/calls', auth, { numberId: number.id, to: '555-0198' }),
        400,
        'validation_error',
      );
      await error(call(h2, 'GET', '/v1/phone/calls/00000000-0000-4000-8000-000000000000', auth), 404, 'not_found');
    } finally {
      await down.close();
      await stop2();
    }
  }, 90_000);

  it('refuses to call a Twilio API address that is not public unless private egress is allowed', async () => {
    const guarded = await startTelephony({ silent: true, ...CREDENTIALS });
    const { h: h3, stop: stop3 } = await startRunStack({ twilioApiUrl: guarded.url, allowPrivateEgress: false });
    try {
      const owner = await signUp(h3);
      await setPlan(h3, owner.workspaceId, 'scale');
      const auth = bearer(await createKey(h3, owner, ['phone:read', 'phone:manage', 'agents:read', 'agents:write']));
      const agent = await createPhoneAgent(h3, auth);
      const number = await createNumber(h3, auth, agent.id);
      const placed = await ok(
        call(h3, 'POST', '/v1/phone/calls', auth, { numberId: number.id, to: '+14155550197' }),
        201,
      );
      const failed = await until('the failed call', async () => {
        const c = await ok(call(h3, 'GET', `/v1/phone/calls/${placed.id}`, auth), 200);
        return c.status === 'failed' ? c : undefined;
      });
      expect(failed.endedAt).not.toBeNull();
      expect(guarded.requests).toEqual([]);
    } finally {
      await guarded.close();
      await stop3();
    }
  }, 90_000);
});
