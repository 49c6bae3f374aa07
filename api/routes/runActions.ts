import type { z } from 'zod';
import { Feedback } from '../../db/entities/Feedback';
import { Run } from '../../db/entities/Run';
import {
  approveSignal,
  cancelSignal,
  inputSignal,
  reviewSignal,
  runWorkflowId,
  TERMINAL_STATUSES,
  type RunStatus,
} from '../../workflows/messages';
import type { AppContext } from '../context';
import { ApiError } from '../../domain/errors';
import { idParams } from '../schemas/common';
import { serializeRun } from '../../domain/runs/presenters';
import { approveBody, feedbackBody, inputBody, reviewBody, runOut } from '../schemas/runs';
import type { Temporal } from '../../platform/temporal';
import { findRun } from './runs';
import { defineRoute, type RouteDef } from './route';
import { z as zod } from 'zod';

type IdParams = z.infer<typeof idParams>;

const invalidState = (status: RunStatus) =>
  new ApiError('run.invalid_state', `The run is ${status}; this action does not apply`, { status });

/**
 * CONTRACT §5 input/approve/review/cancel/feedback. The API claims the pending action in the read
 * model with one conditional UPDATE, so of two answers to the same action exactly one is accepted
 * (the other gets 409), then signals the workflow, which stays the judge of the transition.
 */
export function runActionRoutes(deps: { temporal: Temporal }): RouteDef[] {
  const handle = (runId: string) => deps.temporal.client.workflow.getHandle(runWorkflowId(runId));

  async function answer(
    ctx: AppContext,
    runId: string,
    status: 'needs_input' | 'needs_approval' | 'needs_review',
    actionId: string | undefined,
    send: (claimedActionId: string) => Promise<void>,
  ): Promise<void> {
    const em = ctx.state.em;
    const workspaceId = ctx.state.identity!.workspaceId;
    const claimed: Array<{ action_id: string }> = await em.getConnection().execute(
      `update runs set answered_action_id = pending_action->>'id', updated_at = now()
       where id = ? and workspace_id = ? and status = ? and pending_action is not null
         and (?::text is null or pending_action->>'id' = ?)
         and answered_action_id is distinct from pending_action->>'id'
       returning pending_action->>'id' as action_id`,
      [runId, workspaceId, status, actionId ?? null, actionId ?? null],
    );
    if (claimed.length === 0) {
      const run = await findRun(em, workspaceId, runId);
      throw invalidState(run.status);
    }
    try {
      await deps.temporal.call(() => send(claimed[0].action_id));
    } catch (err) {
      // Temporal did not take the answer: release the claim so the caller can retry.
      await em.nativeUpdate(Run, { id: runId, answeredActionId: claimed[0].action_id }, { answeredActionId: null });
      throw err;
    }
    ctx.status = 202;
    ctx.body = serializeRun(await em.fork().findOneOrFail(Run, runId));
  }

  const base = { tag: 'runs', access: { auth: 'any', scope: 'runs:write' } as const, params: idParams };
  const accepted = { 202: { description: 'Accepted; the run continues', schema: runOut } };

  return [
    defineRoute<z.infer<typeof inputBody>, undefined, IdParams>({
      ...base,
      method: 'POST',
      path: '/v1/runs/:id/input',
      summary: 'Answer the question of a run in needs_input',
      body: inputBody,
      responses: accepted,
      async handler(ctx, { params, body }) {
        await answer(ctx, params.id, 'needs_input', body.actionId, (actionId) =>
          handle(params.id).signal(inputSignal, { actionId, answer: body.answer }),
        );
      },
    }),
    defineRoute<z.infer<typeof approveBody>, undefined, IdParams>({
      ...base,
      method: 'POST',
      path: '/v1/runs/:id/approve',
      summary: 'Approve or reject what a run in needs_approval proposes',
      body: approveBody,
      responses: accepted,
      async handler(ctx, { params, body }) {
        await answer(ctx, params.id, 'needs_approval', body.actionId, (actionId) =>
          handle(params.id).signal(approveSignal, { actionId, approved: body.approved, comment: body.comment }),
        );
      },
    }),
    defineRoute<z.infer<typeof reviewBody>, undefined, IdParams>({
      ...base,
      method: 'POST',
      path: '/v1/runs/:id/review',
      summary: 'Accept, correct or reject the output of a run in needs_review',
      body: reviewBody,
      responses: accepted,
      async handler(ctx, { params, body }) {
        await answer(ctx, params.id, 'needs_review', body.actionId, (actionId) =>
          handle(params.id).signal(reviewSignal, {
            actionId,
            accept: body.accept,
            correctedOutput: body.correctedOutput,
          }),
        );
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      ...base,
      method: 'POST',
      path: '/v1/runs/:id/cancel',
      summary: 'Cancel a run in any non-terminal status',
      responses: accepted,
      async handler(ctx, { params }) {
        const em = ctx.state.em;
        const run = await findRun(em, ctx.state.identity!.workspaceId, params.id);
        if (TERMINAL_STATUSES.includes(run.status)) throw invalidState(run.status);
        await deps.temporal.call(() => handle(run.id).signal(cancelSignal));
        ctx.status = 202;
        ctx.body = serializeRun(run);
      },
    }),
    defineRoute<z.infer<typeof feedbackBody>, undefined, IdParams>({
      tag: 'runs',
      params: idParams,
      access: { auth: 'any', scope: 'feedback:write' },
      method: 'POST',
      path: '/v1/runs/:id/feedback',
      summary: 'Rate a run, optionally with a corrected output',
      body: feedbackBody,
      responses: {
        201: {
          description: 'Recorded',
          schema: zod.object({
            id: zod.uuid(),
            runId: zod.uuid(),
            rating: zod.number().int(),
            correctedOutput: zod.unknown(),
            comment: zod.string().nullable(),
            createdAt: zod.iso.datetime(),
          }),
        },
      },
      async handler(ctx, { params, body }) {
        const em = ctx.state.em;
        const run = await findRun(em, ctx.state.identity!.workspaceId, params.id);
        const fb = new Feedback(
          run.id,
          run.workspaceId,
          body.rating,
          body.correctedOutput ?? null,
          body.comment ?? null,
        );
        await em.persist(fb).flush();
        ctx.status = 201;
        ctx.body = {
          id: fb.id,
          runId: run.id,
          rating: fb.rating,
          correctedOutput: fb.correctedOutput,
          comment: fb.comment,
          createdAt: fb.createdAt.toISOString(),
        };
      },
    }),
  ];
}
