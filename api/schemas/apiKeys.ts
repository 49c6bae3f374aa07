import { z } from 'zod';
import { SCOPES } from '../../domain/identity/scopes';
import { trimmedText } from './text';

// Only listed scopes, no wildcard of any kind (docs/api/identity.md): `*`, `runs:*` and the like fail the enum.
const scopes = z
  .array(z.enum(SCOPES))
  .min(1)
  .max(SCOPES.length * 2)
  .transform((s) => [...new Set(s)]);

const spendCap = z.number().nonnegative().max(1_000_000_000).nullable();

export const createApiKeyBody = z.object({
  name: trimmedText(200),
  scopes,
  monthlySpendCapUsd: spendCap.optional(),
});

export const spendCapBody = z.object({ monthlySpendCapUsd: spendCap });

export const apiKeyOut = z.object({
  id: z.uuid(),
  name: z.string(),
  scopes: z.array(z.enum(SCOPES)),
  prefix: z.string(),
  monthlySpendCapUsd: z.number().nullable(),
  spentThisMonthUsd: z.number(),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable(),
});

export const createdApiKeyOut = apiKeyOut
  .omit({ spentThisMonthUsd: true, lastUsedAt: true })
  .extend({ key: z.string().describe('The plaintext key. Shown only in this response.') });

export const apiKeyListOut = z.object({ apiKeys: z.array(apiKeyOut), nextCursor: z.string().nullable() });
