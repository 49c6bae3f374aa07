import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiKey } from '../../db/entities/ApiKey';
import { Workspace } from '../../db/entities/Workspace';
import type { ModelInfo } from '../models/types';
import { estimateRunCostUsd } from '../models/registry';
import type { Config } from '../../platform/config';
import type { Identity } from '../identity/identity';
import { ApiError } from '../errors';
import { microsToUsd, usdToMicros } from './money';
import { spentThisMonthMicros } from './spend';

/**
 * The pre-flight checks of run creation after the agent and file checks (the order of docs/api/runs.md):
 * unverified-session limit (403), key spend cap (402), credits (402).
 */
export async function checkRunAllowed(
  em: EntityManager,
  identity: Identity,
  model: ModelInfo,
  input: unknown,
  config: Config,
): Promise<void> {
  if (identity.actor === 'session' && !identity.emailVerified) {
    // Only unverified session accounts are limited (docs/api/billing.md); API keys never are.
    const [{ count }] = await em
      .getConnection()
      .execute<Array<{ count: string }>>('select count(*) from runs where user_id = ?', [identity.userId]);
    if (Number(count) >= config.unverifiedRunLimit) {
      throw new ApiError(
        'auth.email_verification_required',
        `Verify your e-mail address to create more than ${config.unverifiedRunLimit} runs`,
        { limit: config.unverifiedRunLimit },
      );
    }
  }
  if (identity.actor === 'api_key') {
    const key = await em.findOneOrFail(ApiKey, identity.keyId);
    if (key.monthlySpendCapMicros !== null) {
      const spent = (await spentThisMonthMicros(em, [key.id])).get(key.id) ?? 0;
      if (spent >= key.monthlySpendCapMicros) {
        throw new ApiError('billing.spend_cap_exceeded', 'This API key reached its monthly spend cap', {
          cap: microsToUsd(key.monthlySpendCapMicros),
          spent: microsToUsd(spent),
        });
      }
    }
  }
  const workspace = await em.findOneOrFail(Workspace, identity.workspaceId);
  const required = usdToMicros(estimateRunCostUsd(model, input));
  if (workspace.creditBalanceMicros < required) {
    throw new ApiError('billing.insufficient_credits', 'Not enough credits for this run', {
      required: microsToUsd(required),
      available: microsToUsd(workspace.creditBalanceMicros),
    });
  }
}
