/** A WhatsApp Cloud API phone number answered by an agent; its credentials are never returned. */
export interface WhatsAppAccount {
  id: string;
  phoneNumberId: string;
  agentId: string;
  /** Sent instead of a reply outside WhatsApp's 24-hour customer service window; null for none. */
  template: WhatsAppTemplate | null;
  /** Where the Cloud API's webhook is to point (verification and messages). */
  webhookUrl: string;
  createdAt: string;
  updatedAt: string;
}

/** A message template approved in WhatsApp Manager. */
export interface WhatsAppTemplate {
  name: string;
  /** Its language code, such as `en_US`. */
  language: string;
}

/** Body of `whatsapp.createAccount`. */
export interface WhatsAppAccountCreateParams {
  phoneNumberId: string;
  accessToken: string;
  appSecret: string;
  verifyToken: string;
  agentId: string;
  template?: WhatsAppTemplate | null;
}

/** What `whatsapp.redeliver` answers: the attempt's outcome. */
export interface WhatsAppRedelivery {
  status: 'sent' | 'failed';
  error: string | null;
}

/** A conversation of an account with one contact. */
export interface WhatsAppConversation {
  id: string;
  accountId: string;
  agentId: string;
  /** The contact's WhatsApp id. */
  waId: string;
  status: 'active' | 'ended';
  endedReason: string | null;
  createdAt: string;
  updatedAt: string;
  endedAt: string | null;
}

/** One message of a conversation, in order. */
export interface WhatsAppMessage {
  /** The message's id; a failed reply's is what `whatsapp.redeliver` takes. */
  id: string;
  seq: number;
  role: 'user' | 'assistant';
  text: string;
  /** The Cloud API's id: a contact's message's, or the one the Graph API gave a sent reply. */
  messageId: string | null;
  /** A reply's: `pending` until sent, then as Meta reports it; null for a contact's message. */
  status: 'pending' | 'sent' | 'delivered' | 'read' | 'failed' | null;
  /** Why a reply failed. */
  error: string | null;
  /** The run that produced an assistant message. */
  runId: string | null;
  createdAt: string;
}

/** A conversation with its messages. */
export interface WhatsAppConversationDetail extends WhatsAppConversation {
  messages: WhatsAppMessage[];
}
