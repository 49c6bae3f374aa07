import { z } from 'zod';
import { pageQuery, positionCursor } from '../../domain/shared/pagination';
import { RUN_STATUSES } from '../../workflows/messages';
import { timestamp } from './common';
import { text } from './text';
import { policyProgressFields } from './approvalPolicy';

const json = z.unknown();
const object = z.record(z.string(), z.unknown());

export const createRunBody = z.object({
  agentId: z.uuid(),
  input: object
    .refine(
      (v) => v.fileIds === undefined || (Array.isArray(v.fileIds) && v.fileIds.every((f) => typeof f === 'string')),
      {
        message: 'fileIds must be an array of file ids',
        path: ['fileIds'],
      },
    )
    .default({}),
  metadata: object.default({}),
});

export const listRunsQuery = pageQuery.extend({
  status: z.enum(RUN_STATUSES).optional(),
  agentId: z.uuid().optional(),
});

/** Steps page like every list, but a page holds 100 by default: most runs fit in one. */
export const listStepsQuery = pageQuery.extend({
  limit: z.coerce.number().int().min(1).max(100).default(100),
  cursor: positionCursor,
});

const actionId = text(1, 64).optional();
export const inputBody = z.object({ answer: json.refine((v) => v !== undefined, 'answer is required'), actionId });
export const approveBody = z.object({ approved: z.boolean(), comment: text(0, 10_000).optional(), actionId });
export const reviewBody = z.object({ accept: z.boolean(), correctedOutput: json.optional(), actionId });
export const feedbackBody = z.object({
  rating: z.number().int().min(1).max(5),
  correctedOutput: json.optional(),
  comment: text(0, 10_000).optional(),
});

// One shape per kind of wait (docs/api/runs.md): a question, a tool call or output to approve, output to review.
const pendingAction = z
  .discriminatedUnion('type', [
    z.object({ id: z.string(), type: z.literal('input'), question: z.string() }).catchall(z.unknown()),
    z
      .object({
        id: z.string(),
        type: z.literal('approval'),
        tool: z.string().optional(),
        args: z.record(z.string(), z.unknown()).optional(),
        proposedOutput: z.unknown().optional(),
        // an approval gate under a policy (docs/api/runs.md#approval-policies)
        ...policyProgressFields,
      })
      .catchall(z.unknown()),
    z.object({ id: z.string(), type: z.literal('review'), proposedOutput: z.unknown() }).catchall(z.unknown()),
  ])
  .nullable();

export const runOut = z.object({
  id: z.uuid(),
  agentId: z.uuid(),
  agentVersion: z.number().int(),
  status: z.enum(RUN_STATUSES),
  input: object,
  output: json,
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  pendingAction,
  usage: z.object({ inputTokens: z.number().int(), outputTokens: z.number().int(), costUsd: z.number() }),
  metadata: object,
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  startedAt: z.iso.datetime().nullable(),
  completedAt: z.iso.datetime().nullable(),
});
export type RunOut = z.infer<typeof runOut>;

export const runListOut = z.object({ runs: z.array(runOut), nextCursor: z.string().nullable() });

export const stepOut = z.object({
  index: z.number().int(),
  type: z.string(),
  status: z.string(),
  detail: object,
  startedAt: z.iso.datetime(),
  completedAt: z.iso.datetime().nullable(),
});

/** `POST /v1/local-runs`: a batch of runs a local runner executed itself. */
const localRun = z.object({
  input: z.record(z.string(), z.unknown()).default({}),
  status: z.enum(['succeeded', 'failed']),
  output: z.unknown().optional(),
  error: z
    .object({ code: text(1, 100), message: text(0, 10_000) })
    .nullable()
    .optional(),
  startedAt: timestamp,
  completedAt: timestamp,
  // the runs table keeps token counts as 4-byte integers
  usage: z
    .object({
      inputTokens: z.number().int().min(0).max(2_147_483_647),
      outputTokens: z.number().int().min(0).max(2_147_483_647),
    })
    .optional(),
});

export const localRunsBody = z.object({
  agentId: z.uuid(),
  runs: z
    .array(localRun)
    .min(1)
    .max(100)
    .refine(
      // As instants: strings compare wrongly across fractions (`…:00.5Z` sorts before `…:00Z`).
      (runs) => runs.every((r) => Date.parse(r.startedAt) <= Date.parse(r.completedAt)),
      'startedAt must not be after completedAt',
    ),
});

/** A local-runner batch as lists show it (docs/api/runs.md#local-runs). */
export const localRunBatchOut = z
  .object({ id: z.uuid(), agentId: z.uuid(), count: z.number().int(), createdAt: z.iso.datetime() })
  .strict();
/** `POST /v1/local-runs`'s answer: the recorded runs and the batch they form. */
export const localRunsOut = z
  .object({
    batchId: z.uuid(),
    runs: z.array(z.object({ id: z.uuid(), status: z.enum(['succeeded', 'failed']) }).strict()),
  })
  .strict();
