import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Twilio's X-Twilio-Signature, computed the way the provider does (independently of the service's code). */
export function sign(secret: string, url: string, params: Record<string, string>): string {
  const data =
    url +
    Object.keys(params)
      .sort()
      .map((k) => k + params[k])
      .join('');
  return createHmac('sha1', secret).update(data).digest('base64');
}

export interface Answer {
  status: number;
  body: string;
}

/** Posts one callback as the provider does: form-encoded, signed with `secret` (none when null). */
export async function callback(
  url: string,
  secret: string | null,
  params: Record<string, string>,
  signature?: string,
): Promise<Answer> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  const sig = signature ?? (secret === null ? undefined : sign(secret, url, params));
  if (sig) headers['x-twilio-signature'] = sig;
  const res = await fetch(url, { method: 'POST', headers, body: new URLSearchParams(params) });
  return { status: res.status, body: await res.text() };
}

/** The words of every `<Say>` in a provider XML answer. */
export const said = (xml: string) => [...xml.matchAll(/<Say[^>]*>([^<]*)<\/Say>/g)].map((m) => m[1]);

/** The `action` of the answer's `<Gather>`, where the next words go. */
export const gatherAction = (xml: string) => /<Gather[^>]*action="([^"]*)"/.exec(xml)?.[1]?.replace(/&amp;/g, '&');

export interface OutboundRequest {
  accountSid: string;
  authorization: string;
  form: Record<string, string>;
}

/**
 * A telephony provider on 127.0.0.1: accepts `POST /2010-04-01/Accounts/{sid}/Calls.json` (answering 503 to
 * the first `failFirst` requests), then plays the call: the callbacks a real provider sends to the `Url` it
 * was given (answer, then each of `utterances` to the `<Gather>` action, then the hang-up status callback),
 * signed with `secret()`, recording every XML answer.
 */
export async function startTelephony(opts: {
  failFirst?: number;
  utterances?: string[];
  secret: () => string;
  /** Place the call without playing it (no callbacks). */
  silent?: boolean;
  /** The address a callback URL reaches (a public URL in front of the service); the URL itself is signed. */
  reach?: (url: string) => string;
}) {
  const post = (url: string, params: Record<string, string>) =>
    callback(opts.reach ? opts.reach(url) : url, opts.secret(), params, sign(opts.secret(), url, params));
  const requests: OutboundRequest[] = [];
  const answers: Answer[] = [];
  const done: Array<Promise<void>> = [];
  let failures = opts.failFirst ?? 0;
  const read = async (req: IncomingMessage) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    return Object.fromEntries(new URLSearchParams(text));
  };
  const play = async (form: Record<string, string>, sid: string) => {
    const base = { CallSid: sid, AccountSid: 'AC1', From: form.From, To: form.To, Direction: 'outbound-api' };
    const first = await post(form.Url, { ...base, CallStatus: 'in-progress' });
    answers.push(first);
    let action = gatherAction(first.body);
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
    answers.push(await post(form.StatusCallback, { ...base, CallStatus: 'completed', CallDuration: '42' }));
  };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const match = /^\/2010-04-01\/Accounts\/([^/]+)\/Calls\.json$/.exec(req.url ?? '');
      if (req.method !== 'POST' || !match) {
        res.writeHead(404).end();
        return;
      }
      const form = await read(req);
      requests.push({ accountSid: decodeURIComponent(match[1]), authorization: req.headers.authorization ?? '', form });
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
    /** Waits for every call the provider placed to be played to its end. */
    settled: () => Promise.all(done),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
