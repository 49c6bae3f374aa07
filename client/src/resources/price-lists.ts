/**
 * `client.priceLists`: what the workspace charges its own customers: price lists, their pricing rules and
 * quotes (scopes `agents:read` / `agents:write`). They never change what the service charges the workspace.
 */
import type { CallOptions, HttpClient } from '../http.js';
import { CursorList } from '../pagination.js';
import type {
  PriceList,
  PriceListCreateParams,
  PricingRule,
  PricingRuleCreateParams,
  PricingRuleUpdateParams,
  Quote,
  QuoteParams,
} from '../types.js';

const path = (id: string) => `/v1/price-lists/${encodeURIComponent(id)}`;
const rulePath = (id: string) => `/v1/pricing-rules/${encodeURIComponent(id)}`;

/** Price lists of the workspace. */
export class PriceLists {
  constructor(private readonly http: HttpClient) {}

  /**
   * Creates a price list; `isDefault: true` makes it the workspace's only default.
   * @throws {ValidationError} for an invalid name; {@link ConflictError} past the limit of lists
   */
  create(params: PriceListCreateParams, options?: CallOptions): Promise<PriceList> {
    return this.http.request({ ...options, method: 'POST', path: '/v1/price-lists', json: params });
  }

  /**
   * Lists price lists, newest first, as a lazily fetched {@link CursorList}.
   * @throws {SvcError} on iteration, when a page request fails
   */
  list(params: { limit?: number } = {}, options?: CallOptions): CursorList<'priceLists', PriceList> {
    return new CursorList('priceLists', (cursor) =>
      this.http.request({ ...options, method: 'GET', path: '/v1/price-lists', query: { limit: params.limit, cursor } }),
    );
  }

  /**
   * Reads one price list.
   * @throws {NotFoundError} for an unknown id
   */
  get(id: string, options?: CallOptions): Promise<PriceList> {
    return this.http.request({ ...options, method: 'GET', path: path(id) });
  }

  /**
   * Renames a price list or changes whether it is the default.
   * @throws {NotFoundError} for an unknown id; {@link ValidationError} for an invalid change
   */
  update(id: string, params: Partial<PriceListCreateParams>, options?: CallOptions): Promise<PriceList> {
    return this.http.request({ ...options, method: 'PATCH', path: path(id), json: params });
  }

  /**
   * Deletes a price list and its rules.
   * @throws {NotFoundError} for an unknown id
   */
  async delete(id: string, options?: CallOptions): Promise<void> {
    await this.http.request({ ...options, method: 'DELETE', path: path(id) });
  }

  /**
   * Lists a price list's rules, newest first, as a lazily fetched {@link CursorList}.
   * @throws {NotFoundError} on iteration, for an unknown price list
   */
  rules(id: string, params: { limit?: number } = {}, options?: CallOptions): CursorList<'rules', PricingRule> {
    return new CursorList('rules', (cursor) =>
      this.http.request({
        ...options,
        method: 'GET',
        path: `${path(id)}/rules`,
        query: { limit: params.limit, cursor },
      }),
    );
  }

  /**
   * Adds a rule to a price list.
   * @throws {NotFoundError} for an unknown price list; {@link ValidationError} for an unknown agent or model,
   * a malformed amount or a rule without a price
   */
  createRule(id: string, params: PricingRuleCreateParams, options?: CallOptions): Promise<PricingRule> {
    return this.http.request({ ...options, method: 'POST', path: `${path(id)}/rules`, json: params });
  }

  /**
   * Changes a rule: `match` replaces the whole match, `null` clears a price.
   * @throws {NotFoundError} for an unknown rule; {@link ValidationError} for an invalid change
   */
  updateRule(ruleId: string, params: PricingRuleUpdateParams, options?: CallOptions): Promise<PricingRule> {
    return this.http.request({ ...options, method: 'PATCH', path: rulePath(ruleId), json: params });
  }

  /**
   * Deletes a rule.
   * @throws {NotFoundError} for an unknown rule
   */
  async deleteRule(ruleId: string, options?: CallOptions): Promise<void> {
    await this.http.request({ ...options, method: 'DELETE', path: rulePath(ruleId) });
  }

  /**
   * What the price list asks for one run of an agent with these tokens, and the rule that priced it
   * (`null`: no rule matched, the price is the service's cost).
   * @throws {NotFoundError} for an unknown price list; {@link ValidationError} for an unknown agent
   */
  quote(id: string, params: QuoteParams, options?: CallOptions): Promise<Quote> {
    return this.http.request({
      ...options,
      method: 'GET',
      path: `${path(id)}/quote`,
      query: { agentId: params.agentId, inputTokens: params.inputTokens, outputTokens: params.outputTokens },
    });
  }
}
