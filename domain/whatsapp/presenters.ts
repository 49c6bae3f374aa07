import type { WhatsAppAccount, WhatsAppTemplate } from '../../db/entities/WhatsAppAccount';

/** An account as the API shows it: never a credential (docs/api/whatsapp.md). */
export interface WhatsAppAccountView {
  id: string;
  phoneNumberId: string;
  agentId: string;
  /** Sent instead of a reply outside WhatsApp's 24-hour window. */
  template: WhatsAppTemplate | null;
  /** Where the Cloud API's webhook (verification and messages) is to point. */
  webhookUrl: string;
  createdAt: string;
  updatedAt: string;
}

export function presentAccount(a: WhatsAppAccount, publicUrl: string): WhatsAppAccountView {
  return {
    id: a.id,
    phoneNumberId: a.phoneNumberId,
    agentId: a.agent.id,
    template: a.template,
    webhookUrl: `${publicUrl.replace(/(?<!\/)\/+$/, '')}/hooks/whatsapp/${a.id}`,
    createdAt: a.createdAt.toISOString(),
    updatedAt: a.updatedAt.toISOString(),
  };
}
