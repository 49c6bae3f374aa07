import { createHmac, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One call the fake Graph API received. */
export interface GraphCall {
  path: string;
  authorization: string | undefined;
  body: {
    to?: string;
    type?: string;
    text?: { body?: string };
    template?: { name?: string; language?: { code?: string } };
    messaging_product?: string;
  };
  /** The status the fake answered. */
  status: number;
  /** The message id it answered with, when it took the message. */
  messageId?: string;
}

/**
 * A WhatsApp Cloud API fake on 127.0.0.1: the Graph API side records every `POST /{version}/{phoneNumberId}/messages`
 * and answers what `respond` decides for the n-th call (0-based; default 200 with a `wamid`); the webhook side signs
 * and posts notifications in the Cloud API's shape to the service, as Meta does.
 */
export async function startWhatsAppFake(respond: (n: number) => number = () => 200) {
  const calls: GraphCall[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const status = respond(calls.length);
      let body: GraphCall['body'] = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as GraphCall['body'];
      } catch {
        // recorded as an empty body
      }
      const messageId = status === 200 ? `wamid.${randomUUID()}` : undefined;
      calls.push({ path: req.url ?? '', authorization: req.headers.authorization, body, status, messageId });
      res.statusCode = status;
      res.setHeader('content-type', 'application/json');
      res.end(
        status === 200
          ? JSON.stringify({
              messaging_product: 'whatsapp',
              contacts: [{ input: body.to, wa_id: body.to }],
              messages: [{ id: messageId }],
            })
          : status === 400
            ? JSON.stringify({
                error: { message: '(#131030) Recipient phone number not in allowed list', code: 131030 },
              })
            : JSON.stringify({ error: { message: 'Service temporarily unavailable', code: 2 } }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    /** The calls the fake accepted (answered 200). */
    accepted: () => calls.filter((c) => c.status === 200),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** `sha256=` + hex HMAC-SHA256 of the raw body under the app secret, as the Cloud API signs. */
export const sign = (appSecret: string, raw: string) =>
  `sha256=${createHmac('sha256', appSecret).update(raw).digest('hex')}`;

/** A Cloud API notification of text messages from one contact, in its real shape. */
export function textNotification(
  phoneNumberId: string,
  from: string,
  messages: Array<{ id: string; text: string }>,
): Record<string, unknown> {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550783881', phone_number_id: phoneNumberId },
              contacts: [{ profile: { name: 'Kerry Fisher' }, wa_id: from }],
              messages: messages.map((m) => ({
                from,
                id: m.id,
                timestamp: String(Math.floor(Date.now() / 1000)),
                type: 'text',
                text: { body: m.text },
              })),
            },
          },
        ],
      },
    ],
  };
}

/** A status update (a sent reply was delivered): no messages, still acknowledged. */
export function statusNotification(phoneNumberId: string, recipient: string): Record<string, unknown> {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550783881', phone_number_id: phoneNumberId },
              statuses: [
                {
                  id: `wamid.${randomUUID()}`,
                  status: 'delivered',
                  timestamp: String(Math.floor(Date.now() / 1000)),
                  recipient_id: recipient,
                },
              ],
            },
          },
        ],
      },
    ],
  };
}

/** Meta's status webhook for a message the business sent: `sent`, `delivered`, `read`, or `failed` with errors. */
export function replyStatusNotification(
  phoneNumberId: string,
  recipient: string,
  messageId: string,
  status: 'sent' | 'delivered' | 'read' | 'failed',
): Record<string, unknown> {
  const failed = {
    errors: [
      {
        code: 131047,
        title: 'Re-engagement message',
        message: 'Re-engagement message',
        error_data: { details: 'Message failed to send because more than 24 hours have passed' },
      },
    ],
  };
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550783881', phone_number_id: phoneNumberId },
              statuses: [
                {
                  id: messageId,
                  status,
                  timestamp: String(Math.floor(Date.now() / 1000)),
                  recipient_id: recipient,
                  ...(status === 'failed' ? failed : {}),
                },
              ],
            },
          },
        ],
      },
    ],
  };
}

/** Posts a notification to the service's webhook as the Cloud API does; `signature` overrides the real one. */
export function postNotification(
  serviceUrl: string,
  accountId: string,
  appSecret: string,
  payload: unknown,
  signature?: string | null,
): Promise<Response> {
  const raw = JSON.stringify(payload);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const sig = signature === undefined ? sign(appSecret, raw) : signature;
  if (sig !== null) headers['x-hub-signature-256'] = sig;
  return fetch(`${serviceUrl}/hooks/whatsapp/${accountId}`, { method: 'POST', headers, body: raw });
}
