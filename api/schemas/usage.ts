import { z } from 'zod';
import { day as dayIn, uuid } from './common';

/** `priceListId` adds what that price list bills for the same runs (docs/api/pricing.md#usage). */
export const usageQuery = z.object({ from: dayIn, to: dayIn, priceListId: uuid.optional() });

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Expected YYYY-MM-DD');

const totals = {
  runs: z.number().int(),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  costUsd: z.number(),
};
export const usageOut = z.object({
  from: day,
  to: day,
  ...totals,
  byDay: z.array(z.object({ date: day, ...totals })),
  byAgent: z.array(z.object({ agentId: z.uuid(), ...totals })),
  /** Only with `priceListId`. */
  billedUsd: z.number().optional(),
});
