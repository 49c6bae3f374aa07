import { BigIntType, EntitySchema } from '@mikro-orm/core';
import { BaseEntity } from './BaseEntity';

export const PLANS = ['free_trial', 'starter', 'business', 'scale'] as const;
export type Plan = (typeof PLANS)[number];

/** The per-key per-minute request allowance of each plan (docs/api/limits.md). */
export const PLAN_ENTITLEMENTS: Record<Plan, { apiRateLimitPerMin: number }> = {
  free_trial: { apiRateLimitPerMin: 30 },
  starter: { apiRateLimitPerMin: 60 },
  business: { apiRateLimitPerMin: 300 },
  scale: { apiRateLimitPerMin: 1200 },
};

/** The unit every caller is bound to. Money is integer micro-USD (shown as USD with 6 decimals). */
export class Workspace extends BaseEntity {
  constructor(
    public name: string,
    public plan: Plan,
    public creditBalanceMicros: number,
  ) {
    super();
  }
}

export const WorkspaceSchema = new EntitySchema<Workspace, BaseEntity>({
  class: Workspace,
  extends: 'BaseEntity',
  tableName: 'workspaces',
  properties: {
    name: { type: 'string' },
    plan: { type: 'string' },
    creditBalanceMicros: { type: new BigIntType('number') },
  },
});
