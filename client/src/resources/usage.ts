/** `client.usage`: usage totals and balance, scope `usage:read`. */
import type { CallOptions, HttpClient } from '../http.js';
import type { Balance, Usage, UsageParams } from '../types.js';

/** A `Date` becomes its UTC day `YYYY-MM-DD`; a string is sent as given. */
function toDay(value: string | Date): string {
  return value instanceof Date ? value.toISOString().slice(0, 10) : value;
}

/** Usage and billing figures. */
export class UsageResource {
  constructor(private readonly http: HttpClient) {}

  /**
   * Usage totals between two days, inclusive (`GET /v1/usage?from=&to=`); with `priceListId`, also what
   * that price list bills for the same runs (`billedUsd`).
   * @throws {ValidationError} for malformed dates
   */
  get(params: UsageParams, options?: CallOptions): Promise<Usage> {
    return this.http.request({
      ...options,
      method: 'GET',
      path: '/v1/usage',
      query: { from: toDay(params.from), to: toDay(params.to), priceListId: params.priceListId },
    });
  }

  /** The workspace's credit balance, plan and entitlements. */
  balance(options?: CallOptions): Promise<Balance> {
    return this.http.request({ ...options, method: 'GET', path: '/v1/usage/balance' });
  }
}
