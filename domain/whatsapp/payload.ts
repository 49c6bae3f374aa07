import { z } from 'zod';

/** A text message a contact sent, as the webhook carries it. */
export interface InboundText {
  /** The Cloud API's message id (`wamid.…`): the key every redelivery repeats. */
  id: string;
  /** The contact's WhatsApp id (their number in international form, no `+`). */
  from: string;
  text: string;
}

// Only what is read is checked; the Cloud API adds fields over time and they are ignored.
const textMessage = z.object({
  id: z.string().regex(/^[\x21-\x7e]{1,255}$/),
  from: z.string().regex(/^[0-9]{1,32}$/),
  type: z.literal('text'),
  text: z.object({ body: z.string().min(1).max(65_536) }),
});

const change = z.object({
  value: z
    .object({
      metadata: z.object({ phone_number_id: z.string() }).partial().optional(),
      messages: z.array(z.unknown()).optional(),
    })
    .optional(),
});

const envelope = z.object({ entry: z.array(z.object({ changes: z.array(z.unknown()).optional() })).optional() });

/**
 * The text messages of one webhook post (`entry[].changes[].value.messages[]`) addressed to `phoneNumberId`, in
 * the order sent. Status updates, other message types (images, reactions …) and changes for another number carry
 * nothing to answer and are skipped, as is anything malformed: the post is still acknowledged, so the Cloud API
 * does not redeliver what would be skipped again.
 */
export function textMessages(body: unknown, phoneNumberId: string): InboundText[] {
  const parsed = envelope.safeParse(body);
  if (!parsed.success) return [];
  const out: InboundText[] = [];
  for (const entry of parsed.data.entry ?? []) {
    for (const raw of entry.changes ?? []) {
      const c = change.safeParse(raw);
      if (!c.success || !c.data.value) continue;
      const number = c.data.value.metadata?.phone_number_id;
      if (number !== undefined && number !== phoneNumberId) continue;
      for (const m of c.data.value.messages ?? []) {
        const msg = textMessage.safeParse(m);
        // PostgreSQL text cannot hold U+0000; nothing a person typed needs it
        if (msg.success)
          out.push({ id: msg.data.id, from: msg.data.from, text: msg.data.text.body.replace(/\u0000/g, '') });
      }
    }
  }
  return out;
}

/** A status Meta reports for a message the business sent (`value.statuses[]`). */
export interface ReplyStatusUpdate {
  /** The Graph API's message id the send answered with. */
  id: string;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  /** For `failed`: Meta's error, as `code title: details`. */
  error: string | null;
}

const statusEntry = z.object({
  id: z.string().min(1).max(255),
  status: z.enum(['sent', 'delivered', 'read', 'failed']),
  errors: z
    .array(
      z.object({
        code: z.union([z.number(), z.string()]).optional(),
        title: z.string().optional(),
        message: z.string().optional(),
        error_data: z.object({ details: z.string().optional() }).optional(),
      }),
    )
    .optional(),
});

const statusChange = z.object({
  value: z
    .object({
      metadata: z.object({ phone_number_id: z.string() }).partial().optional(),
      statuses: z.array(z.unknown()).optional(),
    })
    .optional(),
});

/**
 * The status updates of one webhook post (`entry[].changes[].value.statuses[]`) for `phoneNumberId`, in the order
 * sent; other statuses (Meta adds some over time) and malformed entries are skipped.
 */
export function replyStatuses(body: unknown, phoneNumberId: string): ReplyStatusUpdate[] {
  const parsed = envelope.safeParse(body);
  if (!parsed.success) return [];
  const out: ReplyStatusUpdate[] = [];
  for (const entry of parsed.data.entry ?? []) {
    for (const raw of entry.changes ?? []) {
      const c = statusChange.safeParse(raw);
      if (!c.success || !c.data.value) continue;
      const number = c.data.value.metadata?.phone_number_id;
      if (number !== undefined && number !== phoneNumberId) continue;
      for (const s of c.data.value.statuses ?? []) {
        const st = statusEntry.safeParse(s);
        if (!st.success) continue;
        const e = st.data.errors?.[0];
        const error = e
          ? [e.code, e.title ?? e.message, e.error_data?.details].filter((p) => p !== undefined).join(' ')
          : null;
        out.push({ id: st.data.id, status: st.data.status, error: error ? error.slice(0, 2000) : null });
      }
    }
  }
  return out;
}
