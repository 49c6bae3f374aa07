/** `client.whatsapp`: WhatsApp accounts and their conversations (scopes `whatsapp:read` / `whatsapp:manage`). */
import type { CallOptions, HttpClient } from '../http.js';
import { CursorList } from '../pagination.js';
import type {
  WhatsAppAccount,
  WhatsAppAccountCreateParams,
  WhatsAppConversation,
  WhatsAppConversationDetail,
  WhatsAppRedelivery,
} from '../whatsapp-types.js';

const accountPath = (id: string) => `/v1/whatsapp/accounts/${encodeURIComponent(id)}`;

/** WhatsApp Cloud API phone numbers answered by agents, and their conversations. */
export class WhatsApp {
  constructor(private readonly http: HttpClient) {}

  /**
   * Connects a phone number to an agent; the credentials are stored encrypted and never returned.
   * @throws {ConflictError} when a live account of the workspace has the phone number id
   */
  createAccount(params: WhatsAppAccountCreateParams, options?: CallOptions): Promise<WhatsAppAccount> {
    return this.http.request({ ...options, method: 'POST', path: '/v1/whatsapp/accounts', json: params });
  }

  /**
   * Lists accounts, newest first, as a lazily fetched {@link CursorList}.
   * @throws {SvcError} on iteration, when a page request fails
   */
  accounts(params: { limit?: number } = {}, options?: CallOptions): CursorList<'accounts', WhatsAppAccount> {
    return new CursorList('accounts', (cursor) =>
      this.http.request({
        ...options,
        method: 'GET',
        path: '/v1/whatsapp/accounts',
        query: { limit: params.limit, cursor },
      }),
    );
  }

  /**
   * Changes an account's agent, phone number id or credentials.
   * @throws {NotFoundError} for an unknown id
   */
  updateAccount(
    id: string,
    params: Partial<WhatsAppAccountCreateParams>,
    options?: CallOptions,
  ): Promise<WhatsAppAccount> {
    return this.http.request({ ...options, method: 'PATCH', path: accountPath(id), json: params });
  }

  /**
   * Removes an account: its webhook stops answering and its conversations end.
   * @throws {NotFoundError} for an unknown id
   */
  async deleteAccount(id: string, options?: CallOptions): Promise<void> {
    await this.http.request({ ...options, method: 'DELETE', path: accountPath(id) });
  }

  /**
   * Lists conversations, newest first, optionally of one account, as a lazily fetched {@link CursorList}.
   * @throws {NotFoundError} on iteration, for an unknown account
   */
  conversations(
    params: { accountId?: string; limit?: number } = {},
    options?: CallOptions,
  ): CursorList<'conversations', WhatsAppConversation> {
    return new CursorList('conversations', (cursor) =>
      this.http.request({
        ...options,
        method: 'GET',
        path: '/v1/whatsapp/conversations',
        query: { accountId: params.accountId, limit: params.limit, cursor },
      }),
    );
  }

  /**
   * Reads one conversation with its messages.
   * @throws {NotFoundError} for an unknown id
   */
  conversation(id: string, options?: CallOptions): Promise<WhatsAppConversationDetail> {
    return this.http.request({
      ...options,
      method: 'GET',
      path: `/v1/whatsapp/conversations/${encodeURIComponent(id)}`,
    });
  }

  /**
   * Sends a failed reply again, one attempt now; answers how it went.
   * @throws {NotFoundError} for an unknown conversation or reply; {@link ConflictError} for a reply that has not failed
   */
  redeliver(conversationId: string, messageId: string, options?: CallOptions): Promise<WhatsAppRedelivery> {
    return this.http.request({
      ...options,
      method: 'POST',
      path: `/v1/whatsapp/conversations/${encodeURIComponent(conversationId)}/messages/${encodeURIComponent(messageId)}/redeliver`,
    });
  }
}
