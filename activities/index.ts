import type { Config } from '../platform/config';
import { createResolver } from '../platform/net/dnsServers';
import type { Orm } from '../db/orm';
import type { ModelRegistry } from '../domain/models/registry';
import { createFlowActivities } from './flows';
import { createRunActivities } from './runs';
import type { ToolRegistry } from '../domain/tools/registry';
import type { Temporal } from '../platform/temporal';
import { announceRun, recordRunDeliveries, type AnnouncedRun } from '../domain/webhooks/dispatch';
import { createWebhookActivities } from './webhooks';
import { createSavedTableActivities } from './savedTables';
import { createSecretBox } from '../platform/secrets';
import { createEvalActivities } from './evals';
import { createOutputActivities } from './outputs';
import { saveRunOutputs } from '../domain/outputs/runOutputs';
import { createPhoneActivities } from './phone';
import { createConversationActivities } from './conversations';
import { createChannelAdapters } from '../domain/conversations/channelRegistry';

export interface ActivityDeps {
  config: Config;
  orm: Orm;
  models: ModelRegistry;
  tools: ToolRegistry;
  /** A Temporal client, to start the webhook fan-out workflows. */
  temporal: Temporal;
}

/** The activities of the runs task queue, built from their dependencies by the worker. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createRunActivities({
      orm: deps.orm,
      models: deps.models,
      tools: deps.tools,
      onStatus: async (run, opts) => {
        const { client } = deps.temporal;
        const announced = await announceRun(deps.orm.em.fork(), client, deps.config.temporal.taskQueue, run, opts);
        // A succeeded run's output goes to its agent's save-output connections (docs/api/output-connections.md).
        await saveRunOutputs(deps.orm.em.fork(), client, deps.config.temporal.taskQueue, run);
        return announced;
      },
    }),
    ...createSavedTableActivities({
      orm: deps.orm,
      sources: {
        box: createSecretBox(deps.config.secretKeys),
        allowPrivate: deps.config.allowPrivateEgress,
        resolver: createResolver(deps.config.dnsServers),
      },
    }),
    ...createEvalActivities(deps),
    ...createFlowActivities({
      orm: deps.orm,
      models: deps.models,
      http: { allowPrivate: deps.config.allowPrivateEgress, resolver: createResolver(deps.config.dnsServers) },
    }),
    ...outputActivities(deps),
    ...createPhoneActivities({ orm: deps.orm, box: createSecretBox(deps.config.secretKeys), config: deps.config }),
    ...createConversationActivities({
      orm: deps.orm,
      models: deps.models,
      adapters: createChannelAdapters({ orm: deps.orm, config: deps.config }),
    }),
    /** The fan-out of histories from before the first attempts moved in (fanOutFirstAttempts, webhook queue). */
    async fanOutWebhooks(run: AnnouncedRun): Promise<string[]> {
      return recordRunDeliveries(deps.orm.em.fork(), run);
    },
  };
}

/** The activities of the webhook task queue (`webhookTaskQueue`): attempts and their outcome. */
export function createDeliveryActivities(deps: Pick<ActivityDeps, 'config' | 'orm'>) {
  return {
    ...createWebhookActivities({
      orm: deps.orm,
      allowPrivate: deps.config.allowPrivateWebhooks,
      box: createSecretBox(deps.config.secretKeys),
      workspaceSlots: deps.config.webhookWorkspaceSlots,
      concurrency: deps.config.webhookConcurrency,
      inlineFanOuts: deps.config.webhookInlineFanOuts,
      resolver: createResolver(deps.config.dnsServers),
    }),
    ...outputActivities(deps),
  };
}

/** The save-output activities, on both queues; guarded by the webhooks' rule (SVC_ALLOW_PRIVATE_WEBHOOKS). */
function outputActivities(deps: Pick<ActivityDeps, 'config' | 'orm'>) {
  return createOutputActivities({
    orm: deps.orm,
    allowPrivate: deps.config.allowPrivateWebhooks,
    resolver: createResolver(deps.config.dnsServers),
    box: createSecretBox(deps.config.secretKeys),
  });
}

/** Every activity a workflow may schedule, on whichever queue (the workflows' proxy type). */
export type Activities = ReturnType<typeof createActivities> & ReturnType<typeof createDeliveryActivities>;
