import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { WebhookSubscription, type WebhookEvent } from '../../db/entities/Webhook';
import { Workspace } from '../../db/entities/Workspace';
import { NotPublicAddressError, resolvePublicUrl, type Resolver } from '../../platform/net/publicAddress';
import type { SecretBox } from '../../platform/secrets';
import { secretSlot } from '../../db/secretColumns';
import { ApiError, errors } from '../errors';
import { findPage } from '../shared/pagination';
import type { AuditContext } from '../audit/context';
import { recordAudit } from '../audit/record';
import { serializeWebhook, type WebhookView } from './presenters';

/**
 * A live (not deleted) subscription of the workspace.
 * @throws `not_found` when there is none, including one of another workspace
 */
export async function findSubscription(
  em: EntityManager,
  workspaceId: string,
  id: string,
): Promise<WebhookSubscription> {
  const sub = await em.findOne(WebhookSubscription, { id, workspaceId, deletedAt: null });
  if (!sub) throw errors.notFound('Webhook');
  return sub;
}

/**
 * The URL must resolve to public addresses only (every resolved address, http(s) only), unless
 * `allowPrivate` (SVC_ALLOW_PRIVATE_WEBHOOKS, local development). Names are looked up with `resolver`
 * (`SVC_DNS_SERVERS`, default the system resolver). Returns the normalised URL.
 * @throws 400 `webhook.url_not_public`, naming the reason under `url`
 */
export async function checkUrl(url: string, opts: { allowPrivate: boolean; resolver?: Resolver }): Promise<string> {
  try {
    return (await resolvePublicUrl(url, opts)).url.toString();
  } catch (err) {
    const reason = err instanceof NotPublicAddressError ? err.reason : 'the host could not be resolved';
    throw new ApiError('webhook.url_not_public', `The webhook URL is not a public http(s) address: ${reason}`, {
      issues: [{ path: 'url', message: reason }],
    });
  }
}

export interface NewSubscription {
  url: string;
  events: WebhookEvent[];
  /** Signs the deliveries; write-only, never returned. */
  secret: string;
}

/**
 * Subscribes a public URL to run status events. A workspace holds at most `maxWebhooks` live
 * subscriptions (deleted ones do not count), under any concurrency: creates of one workspace take turns
 * on its row, so each counts the others' commits.
 * @throws 400 `webhook.url_not_public` when the URL is not a public http(s) address;
 *   409 `conflict` when the workspace already holds `maxWebhooks`
 */
export async function createSubscription(
  em: EntityManager,
  workspaceId: string,
  input: NewSubscription,
  opts: { allowPrivate: boolean; resolver?: Resolver; maxWebhooks: number; box: SecretBox },
  audit: AuditContext,
): Promise<WebhookView> {
  const url = await checkUrl(input.url, { allowPrivate: opts.allowPrivate, resolver: opts.resolver });
  const sub = await em.transactional(async (tx) => {
    await tx.findOneOrFail(Workspace, workspaceId, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const live = await tx.count(WebhookSubscription, { workspaceId, deletedAt: null });
    if (live >= opts.maxWebhooks) {
      throw errors.conflict(
        `This workspace already has ${live} webhook subscriptions, the most it may hold; delete one first`,
        { limit: opts.maxWebhooks },
      );
    }
    const created = new WebhookSubscription(workspaceId, url, input.events, '');
    // Sealed and bound to the row (platform/secrets.ts): it signs every delivery, so it is kept openable.
    created.secret = opts.box.seal(input.secret, secretSlot('webhook_subscriptions', created.id, 'secret'));
    await tx.persist(created).flush();
    await recordAudit(tx, audit, {
      action: 'webhook.created',
      resourceType: 'webhook',
      resourceId: created.id,
      details: { url, events: created.events },
    });
    return created;
  });
  return serializeWebhook(sub);
}

/** The workspace's live subscriptions, newest first, one page. */
export async function listSubscriptions(
  em: EntityManager,
  workspaceId: string,
  page: { limit: number; cursor?: string },
): Promise<{ items: WebhookView[]; nextCursor: string | null }> {
  const { items, nextCursor } = await findPage(em, WebhookSubscription, { workspaceId, deletedAt: null }, page);
  return { items: items.map(serializeWebhook), nextCursor };
}

/**
 * Removes a subscription; deliveries still retrying stop at their next attempt, which finds it gone.
 * @throws `not_found`
 */
export async function deleteSubscription(
  em: EntityManager,
  workspaceId: string,
  id: string,
  audit: AuditContext,
): Promise<void> {
  const sub = await findSubscription(em, workspaceId, id);
  await em.transactional(async (tx) => {
    // of two deletes, one finds nothing left to delete (404) and records nothing
    const deleted = await tx.nativeUpdate(
      WebhookSubscription,
      { id: sub.id, deletedAt: null },
      { deletedAt: new Date() },
    );
    if (!deleted) throw errors.notFound('Webhook');
    await recordAudit(tx, audit, {
      action: 'webhook.deleted',
      resourceType: 'webhook',
      resourceId: sub.id,
      details: { url: sub.url, events: sub.events },
    });
  });
}
