import type { PhoneCall } from '../../db/entities/PhoneCall';
import { createResolver } from '../../platform/net/dnsServers';
import { NotPublicAddressError } from '../../platform/net/publicAddress';
import { safeRequest, type SafeResponse } from '../../platform/net/safeHttp';
import { callbackUrl, statusCallbackUrl } from './callbackToken';
import type { PhoneDeps } from './deps';
import type { ProviderCredentials } from './numbers';

/** How one attempt at Twilio's REST API ended. */
export type PlaceOutcome =
  { outcome: 'placed'; sid: string } | { outcome: 'retry'; error: string } | { outcome: 'refused'; error: string };

/** The status changes Twilio is asked to report for an outbound call. */
export const STATUS_EVENTS = ['initiated', 'ringing', 'answered', 'completed'] as const;

/**
 * The form of Twilio's "create a call" request (`POST /2010-04-01/Accounts/{AccountSid}/Calls.json`): the
 * call's own callback URL as `Url` (Twilio asks it for TwiML once answered) and its `/status` as
 * `StatusCallback`, with one `StatusCallbackEvent` per event, as Twilio's helper libraries send a list.
 */
export function callForm(call: PhoneCall, voiceUrl: string): URLSearchParams {
  const form = new URLSearchParams({
    To: call.toNumber,
    From: call.fromNumber,
    Url: voiceUrl,
    Method: 'POST',
    StatusCallback: statusCallbackUrl(voiceUrl),
    StatusCallbackMethod: 'POST',
  });
  for (const event of STATUS_EVENTS) form.append('StatusCallbackEvent', event);
  return form;
}

/**
 * One attempt to place an outbound call through Twilio's REST API at `SVC_TWILIO_API_URL`, form-encoded,
 * basic auth with the account's sid and Auth Token, through the outbound guard (public addresses only unless
 * `SVC_ALLOW_PRIVATE_EGRESS`). Twilio then posts to the call's callback URL (its own token, and `callId` so
 * the callbacks find this call) like for an inbound call. A 5xx, 429 or network error is worth another
 * attempt; any other refusal, or an address the guard refuses, is not. The token is never in an error text.
 */
export async function placeCall(
  deps: Pick<PhoneDeps, 'config'>,
  call: PhoneCall,
  credentials: ProviderCredentials,
  callToken: string,
  timeoutMs = 10_000,
): Promise<PlaceOutcome> {
  const voiceUrl = `${callbackUrl(deps.config, call.number.id, callToken)}?callId=${call.id}`;
  const url = `${deps.config.twilioApiUrl}/2010-04-01/Accounts/${encodeURIComponent(credentials.accountSid)}/Calls.json`;
  const auth = Buffer.from(`${credentials.accountSid}:${credentials.authToken}`).toString('base64');
  let res: SafeResponse;
  try {
    res = await safeRequest(url, {
      method: 'POST',
      headers: {
        Authorization: `Basic ${auth}`,
        'Content-Type': 'application/x-www-form-urlencoded',
        Accept: 'application/json',
      },
      body: callForm(call, voiceUrl).toString(),
      timeoutMs,
      allowPrivate: deps.config.allowPrivateEgress,
      resolver: createResolver(deps.config.dnsServers),
      maxResponseBytes: 16 * 1024,
    });
  } catch (err) {
    if (err instanceof NotPublicAddressError) {
      return { outcome: 'refused', error: `Twilio API address not public: ${err.reason}` };
    }
    return { outcome: 'retry', error: `provider unreachable: ${(err as Error).name}` };
  }
  if (res.status >= 500 || res.status === 429) return { outcome: 'retry', error: `provider answered ${res.status}` };
  if (res.status < 200 || res.status >= 300)
    return { outcome: 'refused', error: `provider refused the call (${res.status})` };
  try {
    const sid = (JSON.parse(res.body.toString('utf8')) as { sid?: unknown }).sid;
    if (typeof sid === 'string' && sid) return { outcome: 'placed', sid: sid.slice(0, 64) };
  } catch {
    // not JSON: reported below
  }
  return { outcome: 'retry', error: 'provider answered without a call sid' };
}
