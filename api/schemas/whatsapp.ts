import { z } from 'zod';
import { urlOut } from './text';
import { pageQuery } from '../../domain/shared/pagination';
import { uuid } from './common';

// Meta's phone number ids are numeric; tokens go into an Authorization header, so visible ASCII only.
const phoneNumberId = z.string().regex(/^[0-9]{1,64}$/, 'Expected the numeric phone number id of the Cloud API');
const accessToken = z.string().regex(/^[\x21-\x7e]{1,4096}$/, 'Expected 1 to 4096 visible ASCII characters');
const secret = z.string().min(1).max(512);
// A template approved in WhatsApp Manager: Meta's names are lower-case letters, digits and underscores.
const template = z
  .strictObject({
    name: z.string().regex(/^[a-z0-9_]{1,512}$/, 'Expected the template name (lower-case letters, digits, _)'),
    language: z.string().regex(/^[a-z]{2,3}(?:_[A-Za-z]{2,4})?$/, 'Expected a language code such as en_US'),
  })
  .describe("Sent instead of a reply outside WhatsApp's 24-hour window; null for none");

export const createAccountBody = z.strictObject({
  phoneNumberId,
  accessToken,
  appSecret: secret,
  verifyToken: secret,
  agentId: uuid,
  template: template.nullable().optional(),
});

export const updateAccountBody = z
  .strictObject({
    phoneNumberId: phoneNumberId.optional(),
    accessToken: accessToken.optional(),
    appSecret: secret.optional(),
    verifyToken: secret.optional(),
    agentId: uuid.optional(),
    template: template.nullable().optional(),
  })
  .refine((b) => Object.keys(b).length > 0, 'Nothing to update')
  .meta({ minProperties: 1 });

export const accountOut = z.object({
  id: z.uuid(),
  phoneNumberId: z.string(),
  agentId: z.uuid(),
  template: z.object({ name: z.string(), language: z.string() }).nullable(),
  webhookUrl: urlOut,
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

export const accountListOut = z.object({ accounts: z.array(accountOut), nextCursor: z.string().nullable() });

export const conversationQuery = pageQuery.extend({ accountId: uuid.optional() });

export const conversationOut = z.object({
  id: z.uuid(),
  accountId: z.uuid(),
  agentId: z.uuid(),
  waId: z.string(),
  status: z.enum(['active', 'ended']),
  endedReason: z.string().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  endedAt: z.iso.datetime().nullable(),
});

export const conversationListOut = z.object({
  conversations: z.array(conversationOut),
  nextCursor: z.string().nullable(),
});

export const messageOut = z.object({
  id: z.uuid(),
  seq: z.number().int(),
  role: z.enum(['user', 'assistant']),
  text: z.string(),
  messageId: z.string().nullable(),
  status: z.enum(['pending', 'sent', 'delivered', 'read', 'failed']).nullable(),
  error: z.string().nullable(),
  runId: z.uuid().nullable(),
  createdAt: z.iso.datetime(),
});

export const conversationDetailOut = conversationOut.extend({ messages: z.array(messageOut) });

export const hookParams = z.object({ accountId: uuid });

export const redeliverParams = z.object({ id: uuid, messageId: uuid });
export const redeliverOut = z.object({ status: z.enum(['sent', 'failed']), error: z.string().nullable() });

// The Cloud API's verification request (docs/api/whatsapp.md#webhook); other query fields are ignored.
export const hubQuery = z.object({
  'hub.mode': z.string().max(64),
  'hub.verify_token': z.string().max(512),
  'hub.challenge': z.string().min(1).max(256),
});

export const hookAckOut = z.object({ received: z.number().int() });
