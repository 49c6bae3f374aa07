import { z } from 'zod';
import { RUN_STATUSES } from '../../workflows/messages';
import { slug } from './apps';

/** A published app's public pages (docs/api/apps.md#public-pages). */
export const publicAppParams = z.object({ slug });

export const publicRunParams = z.object({ slug, runId: z.uuid() });

export const publicRunQuery = z.object({
  token: z.string().min(1).max(200).describe('The token the submission answered with'),
  refresh: z.enum(['off']).optional().describe('`off`: the HTML page does not reload itself while the run is live'),
});

const fieldValues = 'The form’s field values by field name';

/** What a submission may be sent as: the service checks the values against the app's form. */
export const submissionBodies = {
  'application/json': z.record(z.string(), z.unknown()).describe(fieldValues),
  'application/x-www-form-urlencoded': z.record(z.string(), z.string()).describe(`${fieldValues}, each once`),
  'multipart/form-data': z
    .record(z.string(), z.string())
    .describe(`${fieldValues}, and a part per picked file named after its file field`),
};

export const submittedOut = z.object({
  runId: z.uuid(),
  token: z.string().describe('Opens the status page; shown to whoever submitted'),
  statusUrl: z.string().meta({ format: 'uri', description: 'The status page, token included' }),
});

export const publicRunOut = z.object({
  runId: z.uuid(),
  status: z.enum(RUN_STATUSES),
  output: z.unknown(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  createdAt: z.iso.datetime(),
  completedAt: z.iso.datetime().nullable(),
});
