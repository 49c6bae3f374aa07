import type { EntityManager } from '@mikro-orm/postgresql';
import type { Run } from '../../db/entities/Run';
import type { ModelInfo } from '../models/types';
import { estimateRunCostUsd } from '../models/registry';
import type { Config } from '../../platform/config';
import type { RunCreator } from '../identity/identity';
import { ApiError } from '../errors';
import { microsToUsd, usdToMicros } from './money';
import { holdForCreate } from './holds';
import { spentThisMonthMicros } from './spend';

/**
 * The pre-flight checks of run creation after the agent and file checks (the order of docs/api/runs.md):
 * unverified-session limit (403), key spend cap (402), credits (402), the last of which holds the
 * required credits on `run` (domain/billing/holds.ts). `tx` must be the transaction that inserts the run:
 * the caller's user row (session) or key row (API key) is locked first, so concurrent creates by one
 * caller take turns and each counts the runs and holds the earlier ones committed.
 */
export async function checkRunAllowed(
  tx: EntityManager,
  identity: RunCreator,
  model: ModelInfo,
  input: unknown,
  config: Config,
  run: Run,
): Promise<void> {
  if (identity.actor === 'session' && !identity.emailVerified) {
    // Only unverified session accounts are limited (docs/api/billing.md); API keys never are.
    await tx.execute('select 1 from users where id = ? for update', [identity.userId]);
    const [{ count }] = await tx.execute<Array<{ count: string }>>('select count(*) from runs where user_id = ?', [
      identity.userId,
    ]);
    if (Number(count) >= config.unverifiedRunLimit) {
      throw new ApiError(
        'auth.email_verification_required',
        `Verify your e-mail address to create more than ${config.unverifiedRunLimit} runs`,
        { limit: config.unverifiedRunLimit },
      );
    }
  }
  if (identity.actor === 'api_key') {
    const [key] = await tx.execute<Array<{ cap: string | null }>>(
      'select monthly_spend_cap_micros as cap from api_keys where id = ? for update',
      [identity.keyId],
    );
    if (key && key.cap !== null) {
      const cap = Number(key.cap);
      const spent = (await spentThisMonthMicros(tx, [identity.keyId])).get(identity.keyId) ?? 0;
      if (spent >= cap) {
        throw new ApiError('billing.spend_cap_exceeded', 'This API key reached its monthly spend cap', {
          cap: microsToUsd(cap),
          spent: microsToUsd(spent),
        });
      }
    }
  }
  await holdForCreate(tx, run, usdToMicros(estimateRunCostUsd(model, input)));
}
