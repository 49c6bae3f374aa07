import type { Config } from '../api/config';
import type { Orm } from '../db/orm';
import type { ModelRegistry } from './models/registry';
import { createRunActivities } from './runs';
import type { ToolRegistry } from './tools/registry';
import type { Temporal } from '../api/temporal';
import { announceRun, dispatchRunWebhooks, type AnnouncedRun } from './webhooks/dispatch';
import { createWebhookActivities } from './webhooks/deliver';

export interface ActivityDeps {
  config: Config;
  orm: Orm;
  models: ModelRegistry;
  tools: ToolRegistry;
  /** A Temporal client, to start webhook delivery workflows. */
  temporal: Temporal;
}

/** Every activity the worker registers, built from its dependencies (STYLE: activities-dependency-injection). */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createRunActivities({
      orm: deps.orm,
      models: deps.models,
      tools: deps.tools,
      onStatus: async (run) => {
        await announceRun(deps.orm.em.fork(), deps.temporal.client, deps.config.temporal.taskQueue, run);
      },
    }),
    /** The fan-out workflow's one activity: a delivery row and workflow per matching subscription. */
    async fanOutWebhooks(run: AnnouncedRun): Promise<number> {
      return dispatchRunWebhooks(deps.orm.em.fork(), deps.temporal.client, deps.config.temporal.taskQueue, run);
    },
    ...createWebhookActivities({ orm: deps.orm, allowPrivate: deps.config.allowPrivateWebhooks }),
  };
}

export type Activities = ReturnType<typeof createActivities>;
