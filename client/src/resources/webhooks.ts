/** `client.webhooks`: webhook subscriptions, scope `webhooks:manage`; the secret is write-only. */
import type { CallOptions, HttpClient } from '../http.js';
import { CursorList } from '../pagination.js';
import type { Webhook, WebhookCreateParams, WebhookDelivery } from '../types.js';

/** Webhook subscriptions. To check deliveries you receive, use `verifyWebhookSignature`. */
export class Webhooks {
  constructor(private readonly http: HttpClient) {}

  /**
   * Subscribes a URL to run events. The secret is write-only: it is never returned.
   * @throws {ValidationError} `webhook.url_not_public` when the URL resolves to a non-public address
   */
  create(params: WebhookCreateParams, options?: CallOptions): Promise<Webhook> {
    return this.http.request({ ...options, method: 'POST', path: '/v1/webhooks', json: params });
  }

  /**
   * Lists every subscription of the workspace, following the service's pages (`nextCursor`) until the
   * last one. A response without `nextCursor` (a service that does not page this list) is the last page.
   */
  list(options?: CallOptions): Promise<Webhook[]> {
    return new CursorList('webhooks', (cursor) =>
      this.http.request<{ webhooks: Webhook[]; nextCursor: string | null }>({
        ...options,
        method: 'GET',
        path: '/v1/webhooks',
        query: { limit: 100, cursor },
      }),
    ).toArray();
  }

  /**
   * A subscription's delivery log, newest first, as a lazily fetched {@link CursorList}: each delivery
   * with its status (`pending`, `succeeded`, `failed`) and every attempt's HTTP status or error.
   * @throws {NotFoundError} on iteration, for an unknown subscription id
   */
  deliveries(
    id: string,
    params: { limit?: number } = {},
    options?: CallOptions,
  ): CursorList<'deliveries', WebhookDelivery> {
    return new CursorList('deliveries', (cursor) =>
      this.http.request({
        ...options,
        method: 'GET',
        path: `/v1/webhooks/${encodeURIComponent(id)}/deliveries`,
        query: { limit: params.limit, cursor },
      }),
    );
  }

  /**
   * Delivers a finished delivery again: three new attempts with the same body and `id`, whether it failed
   * or succeeded (a receiver that lost it). Returns the delivery, `pending` again.
   * @throws {NotFoundError} for an unknown subscription or delivery
   * @throws {ConflictError} `conflict` while the delivery is still being delivered
   */
  redeliver(id: string, deliveryId: string, options?: CallOptions): Promise<WebhookDelivery> {
    const path = `/v1/webhooks/${encodeURIComponent(id)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`;
    return this.http.request({ ...options, method: 'POST', path });
  }

  /**
   * Removes a subscription.
   * @throws {NotFoundError} for an unknown id
   */
  async delete(id: string, options?: CallOptions): Promise<void> {
    await this.http.request({ ...options, method: 'DELETE', path: `/v1/webhooks/${encodeURIComponent(id)}` });
  }
}
