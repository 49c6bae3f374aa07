import type { EntityManager } from '@mikro-orm/postgresql';
import { Flow, type FlowStatus } from '../../db/entities/Flow';
import { FlowRun } from '../../db/entities/FlowRun';
import type { OutboxEntry } from '../../db/entities/OutboxEntry';
import type { Config } from '../../platform/config';
import type { Temporal } from '../../platform/temporal';
import { FLOW_RUN_TERMINAL, type FlowStep, type FlowTrigger } from '../../workflows/flowMessages';
import { errors } from '../errors';
import type { Identity } from '../identity/identity';
import { newOpaqueToken, sha256Hex } from '../identity/secrets';
import { enqueue, relayNow, release } from '../shared/outbox/relay';
import { findPage } from '../shared/pagination';
import { projectFromBody } from '../projects/find';
import { checkCronInterval } from '../quotas/cronInterval';
import { claimQuota } from '../quotas/quotas';
import { instantiateTemplate } from './catalog';
import { findFlow } from './find';
import { sealHeaders } from './headerSecrets';
import { presentFlow, type FlowView } from './presenters';
import type { SecretBox } from '../../platform/secrets';
import { checkDefinition } from './validate';
import { onBehalfOfCaller, principalColumns } from '../runs/runGate';

export interface FlowDeps {
  config: Pick<Config, 'publicUrl' | 'temporal' | 'minScheduleMinutes'>;
  temporal: Temporal;
  /** Seals http steps' header values (domain/flows/headerSecrets.ts). */
  box: SecretBox;
}

export type CreateFlowInput =
  | {
      name: string;
      description?: string | null;
      projectId?: string | null;
      status?: FlowStatus;
      trigger: FlowTrigger;
      steps: FlowStep[];
    }
  | { templateId: string; name: string; agentId?: string; description?: string | null; projectId?: string | null };

export interface UpdateFlowInput {
  name?: string;
  description?: string | null;
  projectId?: string | null;
  status?: FlowStatus;
  trigger?: FlowTrigger;
  steps?: FlowStep[];
}

const hookUrl = (deps: FlowDeps, token: string) => `${deps.config.publicUrl}/hooks/flows/${token}`;

/**
 * Makes the Temporal calls a flow change owes (its schedule) right after the commit; when Temporal
 * does not answer, the outbox sweep makes them later (docs/architecture.md), and the change stands.
 */
async function relayAfter(deps: FlowDeps, em: EntityManager, entries: OutboxEntry[]): Promise<void> {
  for (const entry of entries) await relayNow(deps, em, entry).catch((err) => release(em, [entry.id], err));
}

function scheduleSync(deps: FlowDeps, tx: EntityManager, flowId: string): OutboxEntry {
  return enqueue(tx, { kind: 'sync_flow_schedule', flowId, taskQueue: deps.config.temporal.taskQueue }, { held: true });
}

/** A schedule trigger fires at most every `SVC_MIN_SCHEDULE_MINUTES`. @throws 400 at `trigger.cron` */
function checkScheduleInterval(deps: FlowDeps, trigger: FlowTrigger): void {
  if (trigger.type === 'schedule' && trigger.cron) {
    checkCronInterval(trigger.cron, deps.config.minScheduleMinutes, 'trigger.cron');
  }
}

/**
 * Creates a flow from a definition or a template (docs/api/flows.md). The definition is checked as a
 * whole (checkDefinition); a webhook trigger gets its token at once (shown once, in `webhookUrl`); a
 * schedule trigger's Temporal Schedule is made through the outbox, committed with the flow.
 */
export async function createFlow(
  deps: FlowDeps,
  em: EntityManager,
  identity: Identity,
  input: CreateFlowInput,
): Promise<FlowView> {
  const def =
    'templateId' in input
      ? { ...instantiateTemplate(input.templateId, input.agentId), status: 'active' as const }
      : { trigger: input.trigger, steps: input.steps, status: input.status ?? 'active' };
  const description =
    'templateId' in input && input.description === undefined
      ? instantiateTemplate(input.templateId, input.agentId).template.description
      : (input.description ?? null);
  await checkDefinition(em, identity.workspaceId, def);
  checkScheduleInterval(deps, def.trigger);
  const project = await projectFromBody(em, identity.workspaceId, input.projectId);
  const flow = new Flow(identity.workspaceId, input.name, description, def.trigger, def.steps);
  flow.steps = sealHeaders(deps.box, flow.id, def.steps);
  flow.status = def.status;
  flow.projectId = project?.id ?? null;
  // Its webhook and schedule runs are made on its author's behalf (docs/api/billing.md#who-pays).
  Object.assign(flow, principalColumns(onBehalfOfCaller(identity)));
  let token: string | null = null;
  if (def.trigger.type === 'webhook') {
    token = newOpaqueToken();
    flow.webhookTokenHash = sha256Hex(token);
  }
  const entries: OutboxEntry[] = [];
  await em.transactional(async (tx) => {
    await claimQuota(tx, identity.workspaceId, { flows: 1, schedules: def.trigger.type === 'schedule' ? 1 : 0 });
    tx.persist(flow);
    await tx.flush();
    if (def.trigger.type === 'schedule') entries.push(scheduleSync(deps, tx, flow.id));
  });
  await relayAfter(deps, em, entries);
  return presentFlow(flow, token ? hookUrl(deps, token) : null);
}

/** One page of the workspace's flows, newest first, optionally of one project. */
export async function listFlows(
  em: EntityManager,
  identity: Identity,
  query: { limit: number; cursor?: string; projectId?: string },
): Promise<{ flows: FlowView[]; nextCursor: string | null }> {
  const where: Record<string, unknown> = { workspaceId: identity.workspaceId };
  if (query.projectId) where.projectId = query.projectId;
  const { items, nextCursor } = await findPage(em, Flow, where, query);
  return { flows: items.map((f) => presentFlow(f)), nextCursor };
}

export async function getFlow(em: EntityManager, identity: Identity, id: string): Promise<FlowView> {
  return presentFlow(await findFlow(em, identity.workspaceId, id));
}

/**
 * Changes a flow; the definition (trigger and steps together as they will be) is checked again.
 * Pausing pauses its schedule, a new trigger replaces the schedule (or removes it), a change to a
 * webhook trigger makes a token (shown in this answer). Runs in flight keep the steps they began with.
 */
export async function updateFlow(
  deps: FlowDeps,
  em: EntityManager,
  identity: Identity,
  id: string,
  input: UpdateFlowInput,
): Promise<FlowView> {
  const flow = await findFlow(em, identity.workspaceId, id);
  const trigger = input.trigger ?? flow.trigger;
  const steps = input.steps ?? flow.steps;
  if (input.trigger || input.steps) await checkDefinition(em, identity.workspaceId, { trigger, steps });
  if (input.trigger) checkScheduleInterval(deps, trigger);
  if (input.projectId !== undefined) {
    flow.projectId = (await projectFromBody(em, identity.workspaceId, input.projectId))?.id ?? null;
  }
  const wasSchedule = flow.trigger.type === 'schedule';
  if (input.name !== undefined) flow.name = input.name;
  if (input.description !== undefined) flow.description = input.description;
  if (input.status !== undefined) flow.status = input.status;
  flow.trigger = trigger;
  if (input.steps) flow.steps = sealHeaders(deps.box, flow.id, input.steps, flow.steps);
  let token: string | null = null;
  if (trigger.type === 'webhook' && !flow.webhookTokenHash) {
    token = newOpaqueToken();
    flow.webhookTokenHash = sha256Hex(token);
  } else if (trigger.type !== 'webhook') {
    flow.webhookTokenHash = null;
  }
  flow.updatedAt = new Date();
  // Whoever changed it last answers for its webhook and schedule runs (docs/api/billing.md#who-pays).
  Object.assign(flow, principalColumns(onBehalfOfCaller(identity)));
  const entries: OutboxEntry[] = [];
  await em.transactional(async (tx) => {
    if (!wasSchedule && trigger.type === 'schedule') await claimQuota(tx, identity.workspaceId, { schedules: 1 });
    tx.persist(flow);
    await tx.flush();
    if (wasSchedule || trigger.type === 'schedule') entries.push(scheduleSync(deps, tx, flow.id));
  });
  await relayAfter(deps, em, entries);
  return presentFlow(flow, token ? hookUrl(deps, token) : null);
}

/**
 * Deletes a flow with its runs and its schedule; its unfinished runs are cancelled (their agent runs
 * too), through the outbox in the same transaction.
 */
export async function deleteFlow(deps: FlowDeps, em: EntityManager, identity: Identity, id: string): Promise<void> {
  const flow = await findFlow(em, identity.workspaceId, id);
  const entries: OutboxEntry[] = [];
  await em.transactional(async (tx) => {
    const open = await tx.find(
      FlowRun,
      { flowId: flow.id, status: { $nin: [...FLOW_RUN_TERMINAL] } },
      { fields: ['id'] },
    );
    for (const run of open) entries.push(enqueue(tx, { kind: 'cancel_flow', flowRunId: run.id }, { held: true }));
    if (flow.trigger.type === 'schedule') entries.push(scheduleSync(deps, tx, flow.id));
    await tx.nativeDelete(Flow, { id: flow.id });
  });
  await relayAfter(deps, em, entries);
}

/** A new webhook token for the flow: the previous one stops working at once. Shown once, in the URL. */
export async function regenerateWebhookToken(
  deps: FlowDeps,
  em: EntityManager,
  identity: Identity,
  id: string,
): Promise<{ webhookUrl: string }> {
  const flow = await findFlow(em, identity.workspaceId, id);
  if (flow.trigger.type !== 'webhook') throw errors.conflict('Only a flow with a webhook trigger has a webhook token');
  const token = newOpaqueToken();
  flow.webhookTokenHash = sha256Hex(token);
  flow.updatedAt = new Date();
  await em.flush();
  return { webhookUrl: hookUrl(deps, token) };
}
