import type { Harness } from '../helpers/harness';
import { ok } from '../helpers/responses';

type Headers = Record<string, string>;

export const call = (h: Harness, method: string, path: string, headers: Headers, json?: unknown) =>
  h.request(path, { method, headers, json });

/** A phone agent (on a phone preset) through the real route. */
export function createPhoneAgent(h: Harness, headers: Headers, body: Record<string, unknown> = {}) {
  return ok(
    call(h, 'POST', '/v1/agents', headers, { name: 'Front desk', presetId: 'phone-receptionist', ...body }),
    201,
  );
}

let counter = 0;
/** A number nobody else connected: E.164, unique per test process and run. */
export function uniqueE164(): string {
  counter += 1;
  return `+1${String(Date.now()).slice(-6)}${String(process.pid % 100).padStart(2, '0')}${String(counter).padStart(2, '0')}`;
}

export const CREDENTIALS = { accountSid: 'AC0123456789abcdef', authToken: 'tok-secret-never-shown-0123456789' };

export function createNumber(h: Harness, headers: Headers, agentId: string, e164 = uniqueE164()) {
  return ok(
    call(h, 'POST', '/v1/phone/numbers', headers, { e164, provider: 'twilio', agentId, credentials: CREDENTIALS }),
    201,
  );
}
