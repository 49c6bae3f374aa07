/** A WhatsApp Cloud API phone number answered by an agent; its credentials are never returned. */
export interface WhatsAppAccount {
  id: string;
  phoneNumberId: string;
  agentId: string;
  /** Where the Cloud API's webhook is to point (verification and messages). */
  webhookUrl: string;
  createdAt: string;
  updatedAt: string;
}

/** Body of `whatsapp.createAccount`. */
export interface WhatsAppAccountCreateParams {
  phoneNumberId: string;
  accessToken: string;
  appSecret: string;
  verifyToken: string;
  agentId: string;
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
  seq: number;
  role: 'user' | 'assistant';
  text: string;
  /** The Cloud API's id of a contact's message. */
  messageId: string | null;
  /** The run that produced an assistant message. */
  runId: string | null;
  createdAt: string;
}

/** A conversation with its messages. */
export interface WhatsAppConversationDetail extends WhatsAppConversation {
  messages: WhatsAppMessage[];
}
