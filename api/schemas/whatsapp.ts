import { z } from 'zod';
import { urlOut } from './text';
import { pageQuery } from '../../domain/shared/pagination';
import { uuid } from './common';

// Meta's phone number ids are numeric; tokens go into an Authorization header, so visible ASCII only.
const phoneNumberId = z.string().regex(/^[0-9]{1,64}$/, 'Expected the numeric phone number id of the Cloud API');
const accessToken = z.string().regex(/^[\x21-\x7e]{1,4096}$/, 'Expected 1 to 4096 visible ASCII characters');
const secret = z.string().min(1).max(512);

export const createAccountBody = z.strictObject({
  phoneNumberId,
  accessToken,
  appSecret: secret,
  verifyToken: secret,
  agentId: uuid,
});

export const updateAccountBody = z
  .strictObject({
    phoneNumberId: phoneNumberId.optional(),
    accessToken: accessToken.optional(),
    appSecret: secret.optional(),
    verifyToken: secret.optional(),
    agentId: uuid.optional(),
  })
  .refine((b) => Object.keys(b).length > 0, 'Nothing to update')
  .meta({ minProperties: 1 });

export const accountOut = z.object({
  id: z.uuid(),
  phoneNumberId: z.string(),
  agentId: z.uuid(),
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
  seq: z.number().int(),
  role: z.enum(['user', 'assistant']),
  text: z.string(),
  messageId: z.string().nullable(),
  runId: z.uuid().nullable(),
  createdAt: z.iso.datetime(),
});

export const conversationDetailOut = conversationOut.extend({ messages: z.array(messageOut) });

export const hookParams = z.object({ accountId: uuid });

// The Cloud API's verification request (docs/api/whatsapp.md#webhook); other query fields are ignored.
export const hubQuery = z.object({
  'hub.mode': z.string().max(64),
  'hub.verify_token': z.string().max(512),
  'hub.challenge': z.string().min(1).max(256),
});

export const hookAckOut = z.object({ received: z.number().int() });
