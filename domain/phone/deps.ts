import type { Config } from '../../platform/config';
import type { SecretBox } from '../../platform/secrets';

/**
 * What the phone area needs besides an EntityManager: the box its secrets are sealed in, the public
 * address callbacks are built from, and the provider's REST base URL (`SVC_TWILIO_API_URL`).
 */
export interface PhoneDeps {
  box: SecretBox;
  config: Pick<Config, 'publicUrl' | 'twilioApiUrl'>;
}

/** Where the provider sends a number's callbacks (docs/api/phone.md#callbacks). */
export function hookUrl(config: Pick<Config, 'publicUrl'>, numberId: string): string {
  return `${config.publicUrl.replace(/(?<!\/)\/+$/, '')}/hooks/phone/${numberId}`;
}
