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

/** What a workspace may hold at once; a create over a cap is 409 `conflict` with `details.quota` (docs/api/limits.md). */
export interface PlanQuotas {
  /** bytes of every file of the library (uploads, app submissions, finance reports) */
  storageBytes: number;
  /** flows with a schedule trigger plus saved tables with a refresh cron */
  schedules: number;
  flows: number;
  savedTables: number;
  phoneNumbers: number;
  whatsappAccounts: number;
}

export type QuotaName = keyof PlanQuotas;

const MIB = 1024 * 1024;

/** The per-plan caps, one row per plan (docs/api/limits.md#quotas). */
export const PLAN_QUOTAS: Record<Plan, PlanQuotas> = {
  free_trial: {
    storageBytes: 100 * MIB,
    schedules: 2,
    flows: 5,
    savedTables: 5,
    phoneNumbers: 1,
    whatsappAccounts: 1,
  },
  starter: {
    storageBytes: 1024 * MIB,
    schedules: 10,
    flows: 25,
    savedTables: 25,
    phoneNumbers: 2,
    whatsappAccounts: 2,
  },
  business: {
    storageBytes: 10 * 1024 * MIB,
    schedules: 50,
    flows: 100,
    savedTables: 100,
    phoneNumbers: 10,
    whatsappAccounts: 10,
  },
  scale: {
    storageBytes: 100 * 1024 * MIB,
    schedules: 200,
    flows: 500,
    savedTables: 500,
    phoneNumbers: 50,
    whatsappAccounts: 50,
  },
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
