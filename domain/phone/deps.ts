import type { Config } from '../../platform/config';
import type { SecretBox } from '../../platform/secrets';

/**
 * What the phone area needs besides an EntityManager: the box its secrets are sealed in, the public
 * address callbacks are built from, Twilio's REST base URL (`SVC_TWILIO_API_URL`) and the outbound
 * guard's settings for calls to it.
 */
export interface PhoneDeps {
  box: SecretBox;
  config: Pick<Config, 'publicUrl' | 'twilioApiUrl' | 'allowPrivateEgress' | 'dnsServers'>;
}
