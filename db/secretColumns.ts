import type { SecretBox, SecretSlot } from '../platform/secrets';

/**
 * Every column that holds a secret, sealed by platform/secrets.ts and bound to its row as
 * `<table>:<id>:<column>`. The rotation command (`npm run admin -- secrets:rotate`) re-seals exactly these.
 * `legacyPlaintext`: earlier releases stored the value in the clear, so a value that is not sealed is read
 * as it is until the rotation command seals it (docs/architecture.md, "Secrets").
 */
export const SECRET_COLUMNS = [
  { table: 'data_sources', column: 'secret', legacyPlaintext: false },
  { table: 'whatsapp_accounts', column: 'access_token', legacyPlaintext: false },
  { table: 'whatsapp_accounts', column: 'app_secret', legacyPlaintext: false },
  { table: 'whatsapp_accounts', column: 'verify_token', legacyPlaintext: false },
  { table: 'phone_numbers', column: 'credentials', legacyPlaintext: false },
  { table: 'phone_calls', column: 'callback_token', legacyPlaintext: false },
  { table: 'output_connections', column: 'secret', legacyPlaintext: true },
  { table: 'webhook_subscriptions', column: 'secret', legacyPlaintext: true },
] as const;

export type SecretColumn = (typeof SECRET_COLUMNS)[number];

/** The slot of one row's secret: what its ciphertext is bound to. */
export function secretSlot<T extends SecretColumn['table']>(
  table: T,
  id: string,
  column: Extract<SecretColumn, { table: T }>['column'],
): SecretSlot {
  return { table, id, column };
}

/** Whether a column may still hold plaintext from before secrets were sealed there. */
export function legacyPlaintext(slot: SecretSlot): boolean {
  return SECRET_COLUMNS.some((c) => c.table === slot.table && c.column === slot.column && c.legacyPlaintext);
}

/**
 * Opens a row's secret, reading a legacy plaintext value where the column may hold one.
 * @throws SecretError (platform/secrets.ts) when it does not open
 */
export function openSecret(box: SecretBox, stored: string, slot: SecretSlot): string {
  return box.open(stored, slot, { legacyPlaintext: legacyPlaintext(slot) });
}
