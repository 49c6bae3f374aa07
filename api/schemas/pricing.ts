import { z } from 'zod';
import { uuid } from './common';

/**
 * A USD amount a caller sets on a price list: a finite number from 0 to `max`, stored as integer
 * micro-USD, so further decimal places are rounded to the nearest micro-USD, as spend caps are
 * (docs/api/pricing.md#money). A JSON Schema cannot say "at most 6 decimals" of a binary float exactly.
 */
const usd = (max: number) => z.number().min(0).max(max);

const perRunUsd = usd(1_000_000);
const perMTokUsd = usd(1_000_000);
/** Up to 100,000 % (a thousandfold), stored as parts per million of the cost (so rounded to 4 decimal places). */
const markupPercent = z.number().min(0).max(100_000);
const priority = z.number().int().min(0).max(1_000_000);

const name = z.string().trim().min(1).max(200);

export const createPriceListBody = z.strictObject({ name, isDefault: z.boolean().optional() });

export const updatePriceListBody = z
  .strictObject({ name: name.optional(), isDefault: z.boolean().optional() })
  .refine((b) => Object.keys(b).length > 0, 'Nothing to update')
  .meta({ minProperties: 1 });

const matchIn = z.strictObject({
  agentId: uuid.nullable().optional(),
  modelId: z.string().min(1).max(200).nullable().optional(),
  appId: uuid.nullable().optional(),
});

export const createRuleBody = z.strictObject({
  match: matchIn.optional(),
  perRunUsd: perRunUsd.optional(),
  inputPerMTokUsd: perMTokUsd.optional(),
  outputPerMTokUsd: perMTokUsd.optional(),
  markupPercent: markupPercent.optional(),
  priority,
});

/** `match` replaces the whole match; `null` clears a price. */
export const updateRuleBody = z
  .strictObject({
    match: matchIn.optional(),
    perRunUsd: perRunUsd.nullable().optional(),
    inputPerMTokUsd: perMTokUsd.nullable().optional(),
    outputPerMTokUsd: perMTokUsd.nullable().optional(),
    markupPercent: markupPercent.nullable().optional(),
    priority: priority.optional(),
  })
  .refine((b) => Object.keys(b).length > 0, 'Nothing to update')
  .meta({ minProperties: 1 });

const tokens = z.coerce.number().int().min(0).max(1_000_000_000).default(0);
export const quoteQuery = z.strictObject({ agentId: uuid, inputTokens: tokens, outputTokens: tokens });

export const priceListOut = z.object({
  id: z.uuid(),
  name: z.string(),
  isDefault: z.boolean(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export const priceListListOut = z.object({ priceLists: z.array(priceListOut), nextCursor: z.string().nullable() });

export const ruleOut = z.object({
  id: z.uuid(),
  priceListId: z.uuid(),
  match: z.object({ agentId: z.uuid().nullable(), modelId: z.string().nullable(), appId: z.uuid().nullable() }),
  perRunUsd: z.number().nullable(),
  inputPerMTokUsd: z.number().nullable(),
  outputPerMTokUsd: z.number().nullable(),
  markupPercent: z.number().nullable(),
  priority: z.number().int(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export const ruleListOut = z.object({ rules: z.array(ruleOut), nextCursor: z.string().nullable() });

export const quoteOut = z.object({ priceUsd: z.number(), ruleId: z.uuid().nullable() });
