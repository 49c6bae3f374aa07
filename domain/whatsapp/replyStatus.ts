import type { EntityManager } from '@mikro-orm/postgresql';
import type { ReplyStatus } from '../../db/entities/WhatsAppReply';
import type { ReplyStatusUpdate } from './payload';

/** How far along a reply is: Meta's webhooks may arrive out of order, and a reply never moves back. */
const RANK: Record<ReplyStatus, number> = { sent: 1, delivered: 2, read: 3, failed: 4 };

/**
 * Applies Meta's status webhooks to the account's replies (docs/api/whatsapp.md#reply-status), each found by the
 * Graph API's message id its send answered with: `delivered`, `read`, or `failed` with Meta's error. An update
 * for a message of no reply of the account, or one that would move a reply back, changes nothing. Answers how
 * many replies changed.
 */
export async function applyReplyStatuses(
  em: EntityManager,
  accountId: string,
  updates: ReplyStatusUpdate[],
): Promise<number> {
  let changed = 0;
  for (const u of updates) {
    const lower = Object.entries(RANK)
      .filter(([, rank]) => rank < RANK[u.status])
      .map(([status]) => status);
    if (lower.length === 0) continue;
    const rows = await em.getConnection().execute(
      `update "whatsapp_replies" r set "status" = ?, "error" = ?, "updated_at" = now()
         from "whatsapp_conversations" w
        where w."id" = r."conversation_id" and w."account_id" = ? and r."message_id" = ? and r."status" in (?)`,
      [u.status, u.status === 'failed' ? (u.error ?? 'Failed') : null, accountId, u.id, lower],
      'run',
    );
    changed += (rows as { affectedRows?: number }).affectedRows ?? 0;
  }
  return changed;
}
