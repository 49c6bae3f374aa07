import { z } from 'zod';
import { pageQuery } from '../../domain/shared/pagination';
import { runOut } from './runs';

/** A file a run produced (docs/api/runs.md#artifacts). */
export const artifactOut = z
  .object({
    fileId: z.uuid(),
    name: z.string(),
    mime: z.string(),
    size: z.number().int(),
    step: z.number().int().nullable().describe('The index of the step that wrote the file'),
    createdAt: z.iso.datetime(),
  })
  .strict();

/** `GET /v1/runs/{id}/artifacts`. */
export const artifactListOut = z.object({ artifacts: z.array(artifactOut), nextCursor: z.string().nullable() });

export const artifactQuery = pageQuery;

/** `GET /v1/runs/{id}/report?format=`: JSON unless `html` is asked for. */
export const reportQuery = z.object({ format: z.enum(['json', 'html']).default('json') });

const answererOut = z
  .object({ type: z.enum(['user', 'api_key']), id: z.uuid(), name: z.string().nullable() })
  .strict()
  .describe('Who answered: a user of the console or an API key');

const reportStepOut = z
  .object({
    index: z.number().int(),
    type: z.string(),
    status: z.string(),
    startedAt: z.iso.datetime(),
    completedAt: z.iso.datetime().nullable(),
    tool: z.string().optional(),
    error: z.string().optional(),
    gate: z
      .object({
        actionId: z.string().nullable(),
        asked: z.record(z.string(), z.unknown()),
        answer: z.unknown(),
        answeredBy: answererOut.nullable(),
        answeredAt: z.iso.datetime().nullable(),
      })
      .strict()
      .optional(),
  })
  .strict();

/** `GET /v1/runs/{id}/report` (docs/api/runs.md#report). */
export const runReportOut = z
  .object({
    run: z
      .object({
        id: z.uuid(),
        status: runOut.shape.status,
        createdAt: z.iso.datetime(),
        startedAt: z.iso.datetime().nullable(),
        completedAt: z.iso.datetime().nullable(),
      })
      .strict(),
    agent: z.object({ id: z.uuid(), name: z.string().nullable(), version: z.number().int() }).strict(),
    timeline: z.array(reportStepOut),
    output: z.unknown(),
    error: runOut.shape.error,
    usage: runOut.shape.usage,
    artifacts: z.array(artifactOut),
  })
  .strict();
