import { z } from 'zod';
import { WEBHOOK_EVENTS, type WebhookDelivery, type WebhookSubscription } from '../../db/entities/Webhook';

export const createWebhookBody = z.object({
  url: z.string().min(1).max(2048),
  events: z
    .array(z.enum(WEBHOOK_EVENTS))
    .min(1)
    .max(WEBHOOK_EVENTS.length * 2)
    .transform((e) => [...new Set(e)]),
  // CONTRACT §6: 16..256 characters, write-only.
  secret: z.string().min(16).max(256),
});

/** spec §2.3: exactly these keys, never the secret. */
export const webhookOut = z
  .object({
    id: z.uuid(),
    url: z.string(),
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

export function serializeWebhook(sub: WebhookSubscription): z.infer<typeof webhookOut> {
  return {
    id: sub.id,
    url: sub.url,
    events: sub.events,
    status: sub.status,
    createdAt: sub.createdAt.toISOString(),
    updatedAt: sub.updatedAt.toISOString(),
  };
}

export function serializeDelivery(d: WebhookDelivery): z.infer<typeof deliveryOut> {
  return {
    id: d.id,
    type: d.type,
    runId: d.runId,
    status: d.status,
    attempts: d.attempts,
    createdAt: d.createdAt.toISOString(),
  };
}
