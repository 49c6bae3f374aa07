import type { Client } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { EntityManager } from '@mikro-orm/postgresql';
import { OutputConnection } from '../../db/entities/OutputConnection';
import { Run } from '../../db/entities/Run';
import type { AnnouncedRun } from '../../workflows/activityTypes';
import { runOutputsWorkflow } from '../../workflows/outputDelivery';
import { SvcWorkspaceId } from '../../workflows/searchAttributes';
import { webhookTaskQueue } from '../../workflows/taskQueues';
import { recordOutputDelivery } from './delivery';
import { findVersionDefinition } from '../agents/versionCache';

/** The connections a run's agent version saves its output to (`settings.saveOutput`), as listed. */
async function savedTo(em: EntityManager, run: Pick<Run, 'agentId' | 'agentVersion'>): Promise<string[]> {
  const version = await findVersionDefinition(em, run.agentId, run.agentVersion);
  const ids = (version?.settings as { saveOutput?: unknown } | undefined)?.saveOutput;
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
}

export const runOutputsWorkflowId = (runId: string) => `run-outputs-${runId}`;

/**
 * Starts saving a run's output when the run has succeeded and its agent version lists connections
 * (docs/api/output-connections.md): one workflow per run (`run-outputs-<runId>`, so a repeated announcement
 * starts nothing more; search attribute `SvcWorkspaceId`), off the run's path. Costs one indexed look-up
 * when there is nothing to save, none when given the run (its agent and version) as its run just ended
 * (its agent version is cached: domain/agents/versionCache.ts).
 */
export async function saveRunOutputs(
  em: EntityManager,
  client: Client,
  taskQueue: string,
  run:
    | Pick<AnnouncedRun, 'id' | 'workspaceId' | 'status'>
    | Pick<Run, 'id' | 'workspaceId' | 'status' | 'agentId' | 'agentVersion'>,
): Promise<void> {
  if (run.status !== 'succeeded') return;
  const row = 'agentId' in run ? run : await em.findOne(Run, run.id);
  if (!row || row.status !== 'succeeded') return;
  if ((await savedTo(em, row)).length === 0) return;
  await client.workflow
    .start(runOutputsWorkflow, {
      workflowId: runOutputsWorkflowId(run.id),
      taskQueue,
      args: [{ runId: run.id, deliveryQueue: webhookTaskQueue(taskQueue) }],
      typedSearchAttributes: [{ key: SvcWorkspaceId, value: run.workspaceId }],
    })
    .catch((err) => {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    });
}

/**
 * Records one delivery of a succeeded run's output per live connection its agent version lists (a deleted
 * connection is skipped) and returns the ids of those still pending. Idempotent (one delivery per connection
 * and run), so a retried activity records nothing twice.
 */
export async function recordRunOutputs(em: EntityManager, runId: string): Promise<string[]> {
  const run = await em.findOne(Run, runId);
  if (!run || run.status !== 'succeeded') return [];
  const listed = await savedTo(em, run);
  if (listed.length === 0) return [];
  const live = await em.find(OutputConnection, {
    id: { $in: listed },
    workspaceId: run.workspaceId,
    deletedAt: null,
  });
  const ids: string[] = [];
  for (const conn of live) {
    ids.push(await recordOutputDelivery(em, run.workspaceId, conn.id, run.output, { runId: run.id }));
  }
  const pending: Array<{ id: string }> = ids.length
    ? await em
        .getConnection()
        .execute(
          `select id from output_deliveries where id in (${ids.map(() => '?').join(', ')}) and status = 'pending' order by id`,
          ids,
        )
    : [];
  return pending.map((r) => r.id);
}
