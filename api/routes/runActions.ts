import type { z } from 'zod';
import { z as zod } from 'zod';
import { answerGate, cancelRun, recordFeedback, type GateAnswer } from '../../domain/runs/actions';
import { answerApproval } from '../../domain/runs/approvalAnswers';
import type { Answerer } from '../../domain/runs/approvers';
import { serializeRun } from '../../domain/runs/presenters';
import type { RelayDeps } from '../../domain/shared/outbox/relay';
import type { AppContext } from '../context';
import { idParams } from '../schemas/common';
import { approveBody, feedbackBody, inputBody, reviewBody, runOut } from '../schemas/runs';
import { auditContext } from '../auditContext';
import { defineRoute, type RouteDef } from './route';
import { INELIGIBLE_REASONS } from '../../workflows/approvalPolicy';

type IdParams = z.infer<typeof idParams>;

/** The answers to a run's gates, cancel and feedback (docs/api/runs.md). */
export function runActionRoutes(deps: RelayDeps): RouteDef[] {
  async function answer(ctx: AppContext, runId: string, actionId: string | undefined, given: GateAnswer) {
    const identity = ctx.state.identity!;
    const run = await answerGate(
      deps,
      ctx.state.em,
      identity.workspaceId,
      runId,
      actionId,
      given,
      auditContext(ctx),
      identity,
    );
    ctx.status = 202;
    ctx.body = serializeRun(run);
  }

  const base = { tag: 'runs', access: { auth: 'any', scope: 'runs:write' } as const, params: idParams };
  const accepted = {
    202: { description: 'Accepted; the run continues', schema: runOut },
    409: { description: '`run.invalid_state`: the run is not waiting for this answer' },
  };
  const approvalResponses = {
    ...accepted,
    403: {
      description:
        "`forbidden`: the key lacks the scope, or the gate's approval policy refuses this answer; `details.reason` is " +
        INELIGIBLE_REASONS.map((r) => `\`${r}\``).join(', '),
    },
  };

  return [
    defineRoute<z.infer<typeof inputBody>, undefined, IdParams>({
      ...base,
      method: 'POST',
      path: '/v1/runs/:id/input',
      summary: 'Answer the question of a run in needs_input',
      body: inputBody,
      responses: accepted,
      async handler(ctx, { params, body }) {
        await answer(ctx, params.id, body.actionId, { gate: 'input', payload: { answer: body.answer } });
      },
    }),
    defineRoute<z.infer<typeof approveBody>, undefined, IdParams>({
      ...base,
      method: 'POST',
      path: '/v1/runs/:id/approve',
      summary: 'Approve or reject what a run in needs_approval proposes',
      body: approveBody,
      responses: approvalResponses,
      async handler(ctx, { params, body }) {
        const identity = ctx.state.identity!;
        const who: Answerer =
          identity.actor === 'session'
            ? { actor: 'session', workspaceId: identity.workspaceId, userId: identity.userId }
            : { actor: 'api_key', workspaceId: identity.workspaceId, keyId: identity.keyId };
        const given = { approved: body.approved, comment: body.comment };
        const audit = auditContext(ctx);
        const run = await answerApproval(deps, ctx.state.em, who, params.id, body.actionId, given, audit, identity);
        ctx.status = 202;
        ctx.body = serializeRun(run);
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
        await answer(ctx, params.id, body.actionId, {
          gate: 'review',
          payload: { accept: body.accept, correctedOutput: body.correctedOutput },
        });
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      ...base,
      method: 'POST',
      path: '/v1/runs/:id/cancel',
      summary: 'Cancel a run in any non-terminal status',
      responses: accepted,
      async handler(ctx, { params }) {
        const run = await cancelRun(deps, ctx.state.em, ctx.state.identity!.workspaceId, params.id);
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
        const fb = await recordFeedback(ctx.state.em, ctx.state.identity!.workspaceId, params.id, body);
        ctx.status = 201;
        ctx.body = {
          id: fb.id,
          runId: fb.runId,
          rating: fb.rating,
          correctedOutput: fb.correctedOutput,
          comment: fb.comment,
          createdAt: fb.createdAt.toISOString(),
        };
      },
    }),
  ];
}
