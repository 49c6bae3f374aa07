import { z } from 'zod';
import { day as dayIn } from './common';

export const usageQuery = z.object({ from: dayIn, to: dayIn });

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
});
