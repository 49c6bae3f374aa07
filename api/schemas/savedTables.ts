import { z } from 'zod';
import { positionCursor } from '../../domain/shared/pagination';
import { cron } from './cron';
import { readBody } from './dataSources';
import { trimmedText } from './text';

export const createSavedTableBody = z.strictObject({
  name: trimmedText(200),
  dataSourceId: z.uuid(),
  read: readBody,
  refresh: z
    .strictObject({
      cron: cron.nullable().optional(),
    })
    .optional(),
});

export const savedTableOut = z.object({
  id: z.uuid(),
  name: z.string(),
  dataSourceId: z.uuid(),
  read: z.record(z.string(), z.unknown()),
  refresh: z.object({ cron: z.string().nullable() }),
  rowCount: z.number().int(),
  columns: z.array(z.string()),
  refreshedAt: z.iso.datetime().nullable(),
  status: z.enum(['pending', 'ok', 'error']),
  error: z.string().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

export const savedTableListOut = z.object({ savedTables: z.array(savedTableOut), nextCursor: z.string().nullable() });

export const rowsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  cursor: positionCursor,
});

export const rowsOut = z.object({
  rows: z.array(z.record(z.string(), z.unknown())),
  nextCursor: z.string().nullable(),
});
