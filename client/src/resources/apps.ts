/** `client.apps`: published apps, their templates, usage and custom domains (scope `apps:manage`). */
import type { CallOptions, HttpClient } from '../http.js';
import { CursorList } from '../pagination.js';
import type {
  App,
  AppCreateParams,
  AppDomain,
  AppDomainCheck,
  AppTemplate,
  AppUpdateParams,
  AppUsage,
} from '../app-types.js';

const path = (id: string) => `/v1/apps/${encodeURIComponent(id)}`;
const domainPath = (id: string, hostname: string) => `${path(id)}/domains/${encodeURIComponent(hostname)}`;

/** Published apps of the workspace. */
export class Apps {
  constructor(private readonly http: HttpClient) {}

  /**
   * Creates a draft app, from a template when `templateId` is given.
   * @throws {ValidationError} for an invalid slug or form, or an unknown agent, price list or template
   * @throws {ConflictError} for a slug another app has
   */
  create(params: AppCreateParams, options?: CallOptions): Promise<App> {
    return this.http.request({ ...options, method: 'POST', path: '/v1/apps', json: params });
  }

  /**
   * Lists apps, newest first, as a lazily fetched {@link CursorList}.
   * @throws {SvcError} on iteration, when a page request fails
   */
  list(params: { limit?: number } = {}, options?: CallOptions): CursorList<'apps', App> {
    return new CursorList('apps', (cursor) =>
      this.http.request({ ...options, method: 'GET', path: '/v1/apps', query: { limit: params.limit, cursor } }),
    );
  }

  /**
   * Reads one app.
   * @throws {NotFoundError} for an unknown id
   */
  get(id: string, options?: CallOptions): Promise<App> {
    return this.http.request({ ...options, method: 'GET', path: path(id) });
  }

  /**
   * Changes an app; a published app serves the change at once.
   * @throws {NotFoundError} for an unknown id; {@link ValidationError} or {@link ConflictError} as for create
   */
  update(id: string, params: AppUpdateParams, options?: CallOptions): Promise<App> {
    return this.http.request({ ...options, method: 'PATCH', path: path(id), json: params });
  }

  /**
   * Deletes an app and its domains; its runs stay.
   * @throws {NotFoundError} for an unknown id
   */
  async delete(id: string, options?: CallOptions): Promise<void> {
    await this.http.request({ ...options, method: 'DELETE', path: path(id) });
  }

  /**
   * Publishes an app: its public page answers.
   * @throws {NotFoundError} for an unknown id
   */
  publish(id: string, options?: CallOptions): Promise<App> {
    return this.http.request({ ...options, method: 'POST', path: `${path(id)}/publish` });
  }

  /**
   * Pauses a published app: its public page answers 404 until it is published again.
   * @throws {NotFoundError} for an unknown id; {@link ConflictError} for a draft
   */
  pause(id: string, options?: CallOptions): Promise<App> {
    return this.http.request({ ...options, method: 'POST', path: `${path(id)}/pause` });
  }

  /**
   * The runs made through an app that finished between two days (`YYYY-MM-DD`, both included).
   * @throws {NotFoundError} for an unknown id; {@link ValidationError} for bad dates
   */
  usage(id: string, params: { from: string; to: string }, options?: CallOptions): Promise<AppUsage> {
    return this.http.request({ ...options, method: 'GET', path: `${path(id)}/usage`, query: params });
  }

  /** The built-in app templates. */
  async templates(options?: CallOptions): Promise<AppTemplate[]> {
    const body = await this.http.request<{ templates: AppTemplate[] }>({
      ...options,
      method: 'GET',
      path: '/v1/app-templates',
    });
    return body.templates;
  }

  /**
   * Adds a custom hostname to an app, `pending` until {@link Apps.verifyDomain} finds its TXT record. Other
   * apps' claims to the same hostname do not stand in the way: the one that proves the record gets it.
   * @throws {NotFoundError} for an unknown app; {@link ConflictError} for a hostname this app has already,
   *   or an eleventh domain
   */
  addDomain(id: string, hostname: string, options?: CallOptions): Promise<AppDomain> {
    return this.http.request({ ...options, method: 'POST', path: `${path(id)}/domains`, json: { hostname } });
  }

  /**
   * Looks up the hostname's `_svc-verify` TXT record and verifies the domain when it holds the value,
   * moving the hostname from any app that verified it before.
   * @throws {NotFoundError} for an unknown app or hostname
   */
  verifyDomain(id: string, hostname: string, options?: CallOptions): Promise<AppDomainCheck> {
    return this.http.request({ ...options, method: 'POST', path: `${domainPath(id, hostname)}/verify` });
  }

  /**
   * Removes a custom hostname from an app.
   * @throws {NotFoundError} for an unknown app or hostname
   */
  async removeDomain(id: string, hostname: string, options?: CallOptions): Promise<void> {
    await this.http.request({ ...options, method: 'DELETE', path: domainPath(id, hostname) });
  }
}
