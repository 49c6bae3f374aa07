import { z } from 'zod';
import { uuid } from './common';

/** `/v1/agents/{id}/versions/{n}`: a version number is a positive integer PostgreSQL's `integer` holds. */
export const versionParams = z.strictObject({
  id: uuid,
  n: z.coerce.number().int().min(1).max(2_147_483_647),
});
