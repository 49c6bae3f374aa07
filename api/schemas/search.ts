import { z } from 'zod';
import { SEARCH_TYPES, type SearchType } from '../../domain/search/workspace';
import { searchText } from './knowledge';

/**
 * `types` is a comma list of result types; absent means all of them. The pattern says the same in the
 * OpenAPI document, so a fuzzer knows which strings are valid.
 */
const TYPE = `(${SEARCH_TYPES.join('|')})`;
const types = z
  .string()
  .max(200)
  .regex(new RegExp(`^${TYPE}(,${TYPE})*$`), `A comma-separated list of ${SEARCH_TYPES.join(', ')}`)
  .transform((v) =>
    v
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.enum(SEARCH_TYPES)).min(1, 'Name at least one type'));

export const workspaceSearchQuery = z.object({
  q: searchText,
  types: types.optional().transform((t): SearchType[] => t ?? [...SEARCH_TYPES]),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});

export const workspaceSearchOut = z.object({
  results: z.array(
    z.object({ type: z.enum(SEARCH_TYPES), id: z.uuid(), title: z.string(), snippet: z.string() }).strict(),
  ),
});
