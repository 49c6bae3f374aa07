import { z } from 'zod';
import { AUDIT_ACTIONS, AUDIT_RESOURCE_TYPES } from '../../domain/audit/actions';
import { pageQuery, positionCursor } from '../../domain/shared/pagination';

const instant = z.iso.datetime({ offset: true }).transform((s) => new Date(s));

/** The filters both the list and the export take (docs/api/audit.md). */
const auditFilter = z.object({
  action: z.enum(AUDIT_ACTIONS).optional(),
  resourceType: z.enum(AUDIT_RESOURCE_TYPES).optional(),
  // PostgreSQL text holds no NUL: refused here rather than failing in the query
  resourceId: z
    .string()
    .min(1)
    .max(200)
    .refine((s) => !s.includes('\u0000'), 'Must not contain U+0000 (NUL)')
    .meta({ pattern: '^[^\\u0000]*$' })
    .optional(),
  actorId: z.uuid().optional().describe("A user's or an API key's id: the entries that actor made"),
  from: instant.optional().describe('Entries at or after this instant (ISO-8601)'),
  to: instant.optional().describe('Entries before this instant (ISO-8601)'),
});

export const auditListQuery = auditFilter.extend({
  limit: pageQuery.shape.limit,
  cursor: positionCursor,
  format: z.enum(['json', 'csv']).default('json').describe('`csv`: every matching entry as CSV, like /v1/audit/export'),
});

export const auditExportQuery = auditFilter;

const actor = z.discriminatedUnion('type', [
  z.object({ type: z.literal('user'), userId: z.uuid() }),
  z.object({ type: z.literal('api_key'), keyId: z.uuid() }),
  z.object({ type: z.literal('system') }),
]);

export const auditEntryOut = z.object({
  id: z.uuid(),
  at: z.iso.datetime(),
  action: z.enum(AUDIT_ACTIONS),
  resourceType: z.enum(AUDIT_RESOURCE_TYPES),
  resourceId: z.string(),
  actor,
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  requestId: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  prevHash: z.string().describe("The previous entry's hash (64 zeros for the first)"),
  hash: z.string().describe('sha256(prevHash + canonical JSON of the entry without prevHash and hash), hex'),
});

export const auditListOut = z.object({ entries: z.array(auditEntryOut), nextCursor: z.string().nullable() });
