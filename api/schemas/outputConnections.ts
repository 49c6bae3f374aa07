import { z } from 'zod';
import { OUTPUT_CONNECTION_TYPES } from '../../db/entities/OutputConnection';
import { uuid } from './common';
import { text, trimmedText, urlOut, urlText } from './text';

/**
 * `http`: a public URL and the secret that signs every delivery (16..256 characters, write-only, as a
 * webhook's); `saved_table`: a saved table of the workspace, its output appended as a row
 * (docs/api/output-connections.md).
 */
export const createOutputConnectionBody = z.discriminatedUnion('type', [
  z.object({ name: trimmedText(200), type: z.literal('http'), url: urlText(2048), secret: text(16, 256) }),
  z.object({ name: trimmedText(200), type: z.literal('saved_table'), savedTableId: uuid }),
]);

/** A connection: never its secret (domain/outputs/presenters.ts makes it). */
export const outputConnectionOut = z
  .object({
    id: z.uuid(),
    name: z.string(),
    type: z.enum(OUTPUT_CONNECTION_TYPES),
    url: urlOut.nullable(),
    savedTableId: z.uuid().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .strict();

export const outputConnectionListOut = z.object({
  outputConnections: z.array(outputConnectionOut),
  nextCursor: z.string().nullable(),
});

export const outputDeliveryOut = z.object({
  id: z.uuid(),
  runId: z.uuid().nullable(),
  flowRunId: z.uuid().nullable(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  attempts: z.array(
    z.object({ at: z.iso.datetime(), statusCode: z.number().int().nullable(), error: z.string().nullable() }),
  ),
  createdAt: z.iso.datetime(),
});

export const outputDeliveryListOut = z.object({
  deliveries: z.array(outputDeliveryOut),
  nextCursor: z.string().nullable(),
});
