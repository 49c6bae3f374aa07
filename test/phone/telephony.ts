import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import twilio from 'twilio';

/** Twilio's X-Twilio-Signature, made by Twilio's own helper library (never by the service's code). */
export const sign = (authToken: string, url: string, params: Record<string, string>): string =>
  twilio.getExpectedTwilioSignature(authToken, url, params);

export interface Answer {
  status: number;
  body: string;
}

/** Posts one callback as Twilio does: form-encoded, signed with the Auth Token (none when null). */
export async function callback(
  url: string,
  authToken: string | null,
  params: Record<string, string>,
  signature?: string,
  reach: (url: string) => string = (u) => u,
): Promise<Answer> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  const sig = signature ?? (authToken === null ? undefined : sign(authToken, url, params));
  if (sig) headers['x-twilio-signature'] = sig;
  const res = await fetch(reach(url), { method: 'POST', headers, body: new URLSearchParams(params) });
  return { status: res.status, body: await res.text() };
}

/** The words of every `<Say>` in a TwiML answer. */
export const said = (xml: string) => [...xml.matchAll(/<Say[^>]*>([^<]*)<\/Say>/g)].map((m) => m[1]);

/** The `action` of the answer's `<Gather>`, where the next words go. */
export const gatherAction = (xml: string) => /<Gather[^>]*action="([^"]*)"/.exec(xml)?.[1]?.replace(/&amp;/g, '&');

export interface OutboundRequest {
  path: string;
  accountSid: string;
  authorization: string;
  contentType: string;
  /** Every form field with all its values, in the order sent. */
  form: Record<string, string[]>;
}

const first = (form: Record<string, string[]>, name: string) => form[name]?.[0] ?? '';

/**
 * Twilio's REST API on 127.0.0.1, checking a request the way Twilio does: `POST
 * /2010-04-01/Accounts/{AccountSid}/Calls.json`, basic auth with that account's sid and `authToken`
 * (else 401), form-encoded with `To`, `From` and `Url` (else 400). It answers 503 to the first `failFirst`
 * requests, then 201 with a call sid, and plays the call: the callbacks Twilio sends (the status callback
 * `initiated`, `ringing`, `in-progress`, the voice `Url` once answered, each of `utterances` to the
 * `<Gather>` action, the final `completed` status callback), signed with the Auth Token, recording every
 * voice answer.
 */
export async function startTelephony(opts: {
  failFirst?: number;
  utterances?: string[];
  authToken: string;
  accountSid: string;
  /** Place the call without playing it (no callbacks). */
  silent?: boolean;
  /** The address a callback URL reaches (the service behind its public URL); the URL itself is signed. */
  reach?: (url: string) => string;
}) {
  const post = (url: string, params: Record<string, string>) =>
    callback(url, opts.authToken, params, undefined, opts.reach);
  const requests: OutboundRequest[] = [];
  const answers: Answer[] = [];
  const statusAnswers: number[] = [];
  const done: Array<Promise<void>> = [];
  let failures = opts.failFirst ?? 0;
  const read = async (req: IncomingMessage) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    const form: Record<string, string[]> = {};
    for (const [k, v] of new URLSearchParams(text)) (form[k] ??= []).push(v);
    return form;
  };
  const play = async (form: Record<string, string[]>, sid: string) => {
    const base = {
      CallSid: sid,
      AccountSid: opts.accountSid,
      From: first(form, 'From'),
      To: first(form, 'To'),
      Direction: 'outbound-api',
    };
    const status = async (CallStatus: string, extra: Record<string, string> = {}) =>
      statusAnswers.push((await post(first(form, 'StatusCallback'), { ...base, CallStatus, ...extra })).status);
    await status('initiated');
    await status('ringing');
    await status('in-progress');
    const answer = await post(first(form, 'Url'), { ...base, CallStatus: 'in-progress' });
    answers.push(answer);
    let action = gatherAction(answer.body);
    let seq = 0;
    for (const words of opts.utterances ?? []) {
      if (!action) break;
      const a = await post(action, {
        ...base,
        CallStatus: 'in-progress',
        SpeechResult: words,
        SequenceNumber: String(++seq),
      });
      answers.push(a);
      action = gatherAction(a.body);
    }
    await status('completed', { CallDuration: '42' });
  };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const path = req.url ?? '';
      const match = /^\/2010-04-01\/Accounts\/([^/]+)\/Calls\.json$/.exec(path);
      if (req.method !== 'POST' || !match) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"code":20404,"status":404}');
        return;
      }
      const form = await read(req);
      const accountSid = decodeURIComponent(match[1]);
      const authorization = req.headers.authorization ?? '';
      requests.push({ path, accountSid, authorization, contentType: req.headers['content-type'] ?? '', form });
      const expected = `Basic ${Buffer.from(`${opts.accountSid}:${opts.authToken}`).toString('base64')}`;
      if (accountSid !== opts.accountSid || authorization !== expected) {
        res.writeHead(401, { 'content-type': 'application/json' }).end('{"code":20003,"status":401}');
        return;
      }
      if (!first(form, 'To') || !first(form, 'From') || !(first(form, 'Url') || first(form, 'Twiml'))) {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"code":21201,"status":400}');
        return;
      }
      if (failures > 0) {
        failures--;
        res.writeHead(503, { 'content-type': 'application/json' }).end('{"message":"try later"}');
        return;
      }
      const sid = `CA${randomUUID().replace(/-/g, '')}`;
      res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ sid, status: 'queued' }));
      if (!opts.silent) done.push(new Promise((r) => setTimeout(r, 50)).then(() => play(form, sid)));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    answers,
    statusAnswers,
    /** Waits for every call Twilio placed to be played to its end. */
    settled: () => Promise.all(done),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The "create a call" request Twilio's own Node library builds for these parameters (its REST client with
 * the transport replaced, so nothing leaves the process): method, URL, basic-auth user and password, form
 * fields (a list as repeated fields).
 */
export async function libraryCallRequest(
  accountSid: string,
  authToken: string,
  params: Parameters<twilio.Twilio['calls']['create']>[0],
): Promise<{ method: string; path: string; username: string; password: string; form: Record<string, string[]> }> {
  let captured: { method: string; uri: string; username: string; password: string; data: Record<string, unknown> };
  const httpClient = {
    request: async (o: typeof captured) => {
      captured = o;
      return { statusCode: 201, body: JSON.stringify({ sid: 'CA0', account_sid: accountSid }), headers: {} };
    },
  };
  await twilio(accountSid, authToken, { httpClient: httpClient as never }).calls.create(params);
  const form: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(captured!.data)) form[k] = Array.isArray(v) ? v.map(String) : [String(v)];
  return {
    method: captured!.method.toUpperCase(),
    path: new URL(captured!.uri).pathname,
    username: captured!.username,
    password: captured!.password,
    form,
  };
}
