/** `client.outputConnections`: where succeeded runs' outputs are saved, scope `webhooks:manage`. */
import type { CallOptions, HttpClient } from '../http.js';
import { CursorList } from '../pagination.js';
import type { OutputConnection, OutputConnectionCreateParams, OutputDelivery } from '../output-types.js';

const path = (id: string) => `/v1/output-connections/${encodeURIComponent(id)}`;

/** Save-output connections. Agents list them in `settings.saveOutput`. */
export class OutputConnections {
  constructor(private readonly http: HttpClient) {}

  /**
   * Creates a connection. The secret is write-only: it is never returned.
   * @throws {ValidationError} `webhook.url_not_public` when the URL resolves to a non-public address;
   *   `validation_error` at `savedTableId` when it names no saved table of the workspace
   */
  create(params: OutputConnectionCreateParams, options?: CallOptions): Promise<OutputConnection> {
    return this.http.request({ ...options, method: 'POST', path: '/v1/output-connections', json: params });
  }

  /**
   * Lists connections, newest first, as a lazily fetched {@link CursorList}.
   * @throws {SvcError} on iteration, when a page request fails
   */
  list(params: { limit?: number } = {}, options?: CallOptions): CursorList<'outputConnections', OutputConnection> {
    return new CursorList('outputConnections', (cursor) =>
      this.http.request({
        ...options,
        method: 'GET',
        path: '/v1/output-connections',
        query: { limit: params.limit, cursor },
      }),
    );
  }

  /**
   * Reads one connection.
   * @throws {NotFoundError} for an unknown id
   */
  get(id: string, options?: CallOptions): Promise<OutputConnection> {
    return this.http.request({ ...options, method: 'GET', path: path(id) });
  }

  /**
   * A connection's delivery log, newest first, as a lazily fetched {@link CursorList}.
   * @throws {NotFoundError} on iteration, for an unknown connection
   */
  deliveries(
    id: string,
    params: { limit?: number } = {},
    options?: CallOptions,
  ): CursorList<'deliveries', OutputDelivery> {
    return new CursorList('deliveries', (cursor) =>
      this.http.request({
        ...options,
        method: 'GET',
        path: `${path(id)}/deliveries`,
        query: { limit: params.limit, cursor },
      }),
    );
  }

  /**
   * Delivers a finished delivery again: three new attempts with the same body and `id`. Any finished
   * delivery of an `http` connection (a receiver that lost one asks again); of a `saved_table` connection
   * only a failed one. Returns the delivery, `pending` again.
   * @throws {NotFoundError} for an unknown connection or delivery
   * @throws {ConflictError} `conflict` while the delivery is still being delivered, or for a saved table
   *   connection's delivery that succeeded
   */
  redeliver(id: string, deliveryId: string, options?: CallOptions): Promise<OutputDelivery> {
    return this.http.request({
      ...options,
      method: 'POST',
      path: `${path(id)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`,
    });
  }

  /**
   * Removes a connection; deliveries still retrying stop.
   * @throws {NotFoundError} for an unknown id
   */
  async delete(id: string, options?: CallOptions): Promise<void> {
    await this.http.request({ ...options, method: 'DELETE', path: path(id) });
  }
}
