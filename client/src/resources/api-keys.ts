/** `client.apiKeys`: API key management, scope `keys:manage`. */
import type { CallOptions, HttpClient } from '../http.js';
import { CursorList } from '../pagination.js';
import type { ApiKey, ApiKeyCreateParams, CreatedApiKey } from '../types.js';

/** API keys of the workspace. */
export class ApiKeys {
  constructor(private readonly http: HttpClient) {}

  /**
   * Mints a key. The plaintext `key` is in this response only; store it now.
   * @throws {ValidationError} for unknown or empty scopes
   * @throws {PermissionError} when granting scopes the caller does not hold
   */
  create(params: ApiKeyCreateParams, options?: CallOptions): Promise<CreatedApiKey> {
    return this.http.request({ ...options, method: 'POST', path: '/v1/api-keys', json: params });
  }

  /**
   * Lists every active key, newest first (never their plaintext; revoked keys are left out), following
   * the service's pages until the last one.
   */
  list(options?: CallOptions): Promise<ApiKey[]> {
    return new CursorList('apiKeys', (cursor) =>
      this.http.request<{ apiKeys: ApiKey[]; nextCursor: string | null }>({
        ...options,
        method: 'GET',
        path: '/v1/api-keys',
        query: { limit: 100, cursor },
      }),
    ).toArray();
  }

  /**
   * Sets or clears (`null`) a key's monthly spend cap in USD.
   * @throws {NotFoundError} for an unknown or revoked id
   */
  setSpendCap(id: string, monthlySpendCapUsd: number | null, options?: CallOptions): Promise<ApiKey> {
    return this.http.request({
      ...options,
      method: 'PUT',
      path: `/v1/api-keys/${encodeURIComponent(id)}/spend-cap`,
      json: { monthlySpendCapUsd },
    });
  }

  /**
   * Revokes a key; it gets 401 from then on.
   * @throws {NotFoundError} for an unknown or already revoked id
   */
  async revoke(id: string, options?: CallOptions): Promise<void> {
    await this.http.request({ ...options, method: 'DELETE', path: `/v1/api-keys/${encodeURIComponent(id)}` });
  }
}
