import { z } from 'zod';
import { OPERATORS } from '../../domain/dataSources/drivers/types';
import { text, trimmedText } from './text';

const name = trimmedText(200);
// a DNS name or an IP literal (IPv6 unbracketed): nothing a URL or a connection string could smuggle
const host = z
  .string()
  .regex(/^[A-Za-z0-9._:-]{1,253}$/, 'Must be a hostname or an IP address')
  .describe('Hostname or IP address; it must be public unless the service allows private egress');
const port = z.number().int().min(1).max(65535);

const databaseConfig = z.strictObject({
  host,
  port,
  database: text(1, 255),
  user: text(1, 255),
  password: text(0, 1024).describe('Stored encrypted; never returned'),
  ssl: z.boolean().optional(),
});

export const createDataSourceBody = z.discriminatedUnion('type', [
  z.strictObject({ name, type: z.enum(['postgres', 'mysql']), config: databaseConfig }),
  z.strictObject({ name, type: z.literal('file') }),
]);

export const updateDataSourceBody = z
  .strictObject({ name: name.optional(), config: databaseConfig.partial().optional() })
  .refine((b) => Object.keys(b).length > 0, 'Nothing to update')
  .meta({ minProperties: 1 });

export const dataSourceOut = z.object({
  id: z.uuid(),
  name: z.string(),
  type: z.enum(['postgres', 'mysql', 'file']),
  status: z.enum(['ok', 'error', 'untested']),
  config: z.object({
    host: z.string().optional(),
    port: z.number().int().optional(),
    database: z.string().optional(),
    user: z.string().optional(),
    ssl: z.boolean().optional(),
  }),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

export const dataSourceListOut = z.object({ dataSources: z.array(dataSourceOut), nextCursor: z.string().nullable() });

export const testOut = z.object({ ok: z.boolean(), latencyMs: z.number().int(), error: z.string().optional() });

export const objectParams = z.object({ id: z.uuid(), name: text(1, 255) });

export const objectsOut = z.object({
  objects: z.array(z.object({ name: z.string(), kind: z.enum(['table', 'view', 'sheet']) })),
});

export const objectOut = z.object({
  name: z.string(),
  columns: z.array(z.object({ name: z.string(), type: z.string(), nullable: z.boolean() })),
});

const identifier = text(1, 255);
// bounded so that the largest valid read stays well under the JSON body limit (SVC_MAX_JSON_BYTES)
const scalar = z.union([z.string().max(500), z.number(), z.boolean()]);

/** A structured read (docs/api/data-sources.md): identifiers are checked against the live schema, values are parameters. */
export const readBody = z.strictObject({
  object: identifier,
  columns: z.array(identifier).max(200).optional(),
  where: z
    .array(
      z.strictObject({
        column: identifier,
        op: z.enum(OPERATORS),
        value: z.union([scalar, z.array(scalar).min(1).max(100)]).optional(),
      }),
    )
    .max(10)
    .optional(),
  orderBy: z
    .array(z.strictObject({ column: identifier, desc: z.boolean().optional() }))
    .max(10)
    .optional(),
  limit: z.number().int().min(1).max(1000).optional(),
});

export const readOut = z.object({
  columns: z.array(z.string()),
  rows: z.array(z.record(z.string(), z.unknown())),
  truncated: z.boolean(),
});

export const sheetsOut = z.object({
  objects: z.array(z.object({ name: z.string(), kind: z.literal('sheet'), rows: z.number().int() })),
});
