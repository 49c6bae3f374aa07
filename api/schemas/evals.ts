import { z } from 'zod';
import { SCORERS } from '../../db/entities/Eval';
import { EVAL_RUN_STATUSES } from '../../db/entities/EvalRun';
import { MAX_EVAL_CASES } from '../../domain/evals/evals';
import { text, trimmedText } from './text';

const json = z.unknown();
const object = z.record(z.string(), z.unknown());

const evalCase = z.strictObject({
  input: object,
  answers: z.array(text(0, 10_000)).max(100).optional(),
  expected: json.refine((v) => v !== undefined, 'expected is required'),
  scorer: z.enum(SCORERS),
});

/** `POST /v1/agents/{id}/evals`: at most MAX_EVAL_CASES cases (docs/api/evals.md). */
export const createEvalBody = z.strictObject({
  name: trimmedText(200),
  cases: z.array(evalCase).min(1).max(MAX_EVAL_CASES, `At most ${MAX_EVAL_CASES} cases per eval`),
});

/** `POST /v1/evals/{id}/runs`: the agent version to run (the current one when absent). */
export const startEvalRunBody = z.strictObject({ version: z.number().int().min(1).max(2_147_483_647).optional() });

const caseOut = z.object({
  input: object,
  answers: z.array(z.string()).optional(),
  expected: json,
  scorer: z.enum(SCORERS),
});

export const evalOut = z.object({
  id: z.uuid(),
  agentId: z.uuid(),
  name: z.string(),
  cases: z.array(caseOut),
  createdAt: z.iso.datetime(),
});

export const evalListOut = z.object({ evals: z.array(evalOut), nextCursor: z.string().nullable() });

export const evalRunOut = z.object({
  id: z.uuid(),
  evalId: z.uuid(),
  agentVersion: z.number().int(),
  status: z.enum(EVAL_RUN_STATUSES),
  total: z.number().int(),
  passed: z.number().int(),
  score: z.number().nullable(),
  results: z.array(
    z.object({
      caseIndex: z.number().int(),
      runId: z.uuid().nullable(),
      passed: z.boolean(),
      score: z.number(),
      detail: z.string().nullable(),
    }),
  ),
  createdAt: z.iso.datetime(),
  completedAt: z.iso.datetime().nullable(),
});

export const evalRunListOut = z.object({ evalRuns: z.array(evalRunOut), nextCursor: z.string().nullable() });
