import type { EntityManager } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import type { AnnouncedRun, StatusWriteOptions } from '../../workflows/activityTypes';
import { saveRunOutputs } from '../outputs/runOutputs';
import { ANNOUNCED, announceRun } from '../webhooks/dispatch';

/**
 * What follows a run's status change, wherever the change was made (the run's activities, or the outbox
 * for local runs, stuck runs and runs that failed to start): the one place that decides whether the change
 * is announced (docs/api/webhooks.md: queued→running and cancelled never are). For one that is: the
 * webhook fan-out, then a succeeded run's output saved to its agent's connections
 * (docs/api/output-connections.md). Returns the announcement when `announcesInline` asks for it and
 * someone listens. Both steps are idempotent, so a retry after a crash delivers once.
 */
export async function announceRunStatus(
  em: EntityManager,
  client: Client,
  taskQueue: string,
  run: AnnouncedRun & Parameters<typeof saveRunOutputs>[3],
  opts: StatusWriteOptions = {},
): Promise<AnnouncedRun | null> {
  if (!ANNOUNCED[run.status]) return null;
  const announced = await announceRun(em.fork(), client, taskQueue, run, opts);
  await saveRunOutputs(em.fork(), client, taskQueue, run);
  return announced;
}
