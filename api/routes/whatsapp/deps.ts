import type { WhatsAppAccountDeps } from '../../../domain/whatsapp/accounts';
import type { Config } from '../../../platform/config';
import { createSecretBox } from '../../../platform/secrets';

/** What the WhatsApp routes need: the secrets' box and the public address webhook URLs are built on. */
export function whatsappDeps(config: Config): WhatsAppAccountDeps {
  return { box: createSecretBox(config.secretsKey), publicUrl: config.publicUrl };
}
