import { z } from 'zod';
import { WEBHOOK_EVENTS } from '../../db/entities/Webhook';
import { text, urlOut, urlText } from './text';

export const createWebhookBody = z.object({
  url: urlText(2048),
  events: z
    .array(z.enum(WEBHOOK_EVENTS))
    .min(1)
    .max(WEBHOOK_EVENTS.length * 2)
    .transform((e) => [...new Set(e)]),
  // 16..256 characters, write-only: never returned anywhere.
  secret: text(16, 256),
});

/** The subscription object: exactly these keys, never the secret (domain/webhooks/presenters.ts makes it). */
export const webhookOut = z
  .object({
    id: z.uuid(),
    url: urlOut,
    events: z.array(z.enum(WEBHOOK_EVENTS)),
    status: z.enum(['active', 'disabled']),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .strict();

export const webhookListOut = z.object({ webhooks: z.array(webhookOut), nextCursor: z.string().nullable() });

export const deliveryOut = z.object({
  id: z.uuid(),
  type: z.enum(WEBHOOK_EVENTS),
  runId: z.uuid(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  attempts: z.array(
    z.object({ at: z.iso.datetime(), statusCode: z.number().int().nullable(), error: z.string().nullable() }),
  ),
  createdAt: z.iso.datetime(),
});

export const deliveryListOut = z.object({ deliveries: z.array(deliveryOut), nextCursor: z.string().nullable() });
