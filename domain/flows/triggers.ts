import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Flow } from '../../db/entities/Flow';
import { FlowRun } from '../../db/entities/FlowRun';
import { errors } from '../errors';
import { sha256Hex } from '../identity/secrets';
import type { FlowDeps } from './flows';
import { startFlowRun } from './runs';

/** The rate-limit bucket of a webhook token (only its hash is ever kept). */
export const hookBucket = (token: string) => `flowhook:${sha256Hex(token)}`;

/**
 * `POST /hooks/flows/{token}`: the token is the credential. Any JSON is the trigger data (a non-object
 * as `{ body }`). Throws `not_found` for a token no flow has (a replaced token included), `conflict`
 * for a paused flow.
 */
export async function triggerByWebhook(
  deps: FlowDeps,
  em: EntityManager,
  token: string,
  body: unknown,
): Promise<{ flowRunId: string }> {
  const flow = await em.findOne(Flow, { webhookTokenHash: sha256Hex(token) });
  if (!flow || flow.trigger.type !== 'webhook') throw errors.notFound('Flow');
  const input =
    body && typeof body === 'object' && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : { body: body ?? null };
  const run = await startFlowRun(deps, em, flow, { type: 'webhook', input });
  return { flowRunId: run.id };
}

/**
 * A tick of a flow's schedule makes one flow run, keyed by the tick's workflow id, so a retried
 * activity finds the run its first attempt made. Null when the flow is gone, paused or no longer on a
 * schedule (a tick that raced the change).
 */
export async function createScheduledFlowRun(
  em: EntityManager,
  flowId: string,
  tickId: string,
): Promise<{ flowRunId: string; workspaceId: string } | null> {
  const prior = await em.findOne(FlowRun, { triggerKey: tickId });
  if (prior) return { flowRunId: prior.id, workspaceId: prior.workspaceId };
  const flow = await em.findOne(Flow, flowId);
  if (!flow || flow.status !== 'active' || flow.trigger.type !== 'schedule') return null;
  const run = new FlowRun(
    flow.workspaceId,
    flow.id,
    { type: 'schedule', input: { scheduledAt: new Date().toISOString() } },
    flow.steps,
  );
  run.triggerKey = tickId;
  // Made on behalf of whoever saved the flow last (docs/api/billing.md#who-pays).
  run.apiKeyId = flow.apiKeyId;
  run.userId = flow.userId;
  try {
    await em.persist(run).flush();
  } catch (err) {
    if (!(err instanceof UniqueConstraintViolationException)) throw err;
    const made = await em.fork().findOneOrFail(FlowRun, { triggerKey: tickId });
    return { flowRunId: made.id, workspaceId: made.workspaceId };
  }
  return { flowRunId: run.id, workspaceId: run.workspaceId };
}
