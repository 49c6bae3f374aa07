import type { PhoneCall } from '../../db/entities/PhoneCall';
import type { PhoneDeps } from './deps';
import { hookUrl } from './deps';
import type { ProviderCredentials } from './numbers';

/** How one attempt at the provider's REST API ended. */
export type PlaceOutcome =
  { outcome: 'placed'; sid: string } | { outcome: 'retry'; error: string } | { outcome: 'refused'; error: string };

/**
 * One attempt to place an outbound call through Twilio's REST API (`POST /2010-04-01/Accounts/{sid}/Calls.json`,
 * form-encoded, basic auth with the account's sid and token) at `SVC_TWILIO_API_URL`. The provider then
 * calls the number's callback URL (with `callId`, so the callbacks find this call) like for an inbound call.
 * A 5xx, 429 or network error is worth another attempt; any other refusal is not. The token is never in
 * an error text.
 */
export async function placeCall(
  deps: Pick<PhoneDeps, 'config'>,
  call: PhoneCall,
  credentials: ProviderCredentials,
  timeoutMs = 10_000,
): Promise<PlaceOutcome> {
  const callback = `${hookUrl(deps.config, call.number.id)}?callId=${call.id}`;
  const url = `${deps.config.twilioApiUrl}/2010-04-01/Accounts/${encodeURIComponent(credentials.accountSid)}/Calls.json`;
  const body = new URLSearchParams({
    To: call.toNumber,
    From: call.fromNumber,
    Url: callback,
    Method: 'POST',
    StatusCallback: callback,
    StatusCallbackMethod: 'POST',
    StatusCallbackEvent: 'completed',
  });
  const auth = Buffer.from(`${credentials.accountSid}:${credentials.authToken}`).toString('base64');
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Basic ${auth}`, 'content-type': 'application/x-www-form-urlencoded' },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    return { outcome: 'retry', error: `provider unreachable: ${(err as Error).name}` };
  }
  const text = await res.text().catch(() => '');
  if (res.status >= 500 || res.status === 429) return { outcome: 'retry', error: `provider answered ${res.status}` };
  if (res.status < 200 || res.status >= 300)
    return { outcome: 'refused', error: `provider refused the call (${res.status})` };
  try {
    const sid = (JSON.parse(text) as { sid?: unknown }).sid;
    if (typeof sid === 'string' && sid) return { outcome: 'placed', sid: sid.slice(0, 64) };
  } catch {
    // not JSON: reported below
  }
  return { outcome: 'retry', error: 'provider answered without a call sid' };
}
