import type { Config } from '../platform/config';
import { createResolver } from '../platform/net/dnsServers';
import type { Orm } from '../db/orm';
import type { ModelRegistry } from '../domain/models/registry';
import { createFlowActivities } from './flows';
import { createRunActivities } from './runs';
import type { ToolRegistry } from '../domain/tools/registry';
import type { Temporal } from '../platform/temporal';
import { announceRunStatus } from '../domain/runs/statusAnnouncement';
import { createWebhookActivities } from './webhooks';
import { createSavedTableActivities } from './savedTables';
import { createSecretBox } from '../platform/secrets';
import { createEvalActivities } from './evals';
import { createOutputActivities } from './outputs';
import { createPhoneActivities } from './phone';
import { createConversationActivities } from './conversations';
import { createRetentionActivities } from './retention';
import type { ChannelRegistry } from '../domain/conversations/channelRegistry';
import { createMailer, type Mailer } from '../platform/mailer';
import { createLogger } from '../platform/logger';

export interface ActivityDeps {
  config: Config;
  orm: Orm;
  models: ModelRegistry;
  tools: ToolRegistry;
  /** The asynchronous channels' adapters, for conversation replies. */
  channels: ChannelRegistry;
  /** A Temporal client, to start the webhook fan-out workflows. */
  temporal: Temporal;
  /** Approvers' notices (default: SMTP when `SVC_SMTP_URL` is set, else the log). */
  mailer?: Mailer;
}

/** The activities of the runs task queue, built from their dependencies by the worker. */
export function createActivities(deps: ActivityDeps) {
  const mailer =
    deps.mailer ??
    createMailer({
      smtpUrl: deps.config.smtpUrl,
      from: deps.config.mailFrom,
      dir: deps.config.mailDir,
      logger: createLogger(deps.config.logLevel),
    });
  return {
    ...createRunActivities({
      orm: deps.orm,
      models: deps.models,
      tools: deps.tools,
      onStatus: (run, opts) =>
        announceRunStatus(deps.orm.em, deps.temporal.client, deps.config.temporal.taskQueue, run, opts),
      notices: { config: deps.config, mailer },
    }),
    ...createSavedTableActivities({
      orm: deps.orm,
      sources: {
        box: createSecretBox(deps.config.secretKeys),
        allowPrivate: deps.config.allowPrivateEgress,
        resolver: createResolver(deps.config.dnsServers),
        maxReadBytes: deps.config.maxReadBytes,
      },
    }),
    ...createEvalActivities(deps),
    ...createFlowActivities({
      orm: deps.orm,
      models: deps.models,
      config: deps.config,
      http: {
        box: createSecretBox(deps.config.secretKeys),
        allowPrivate: deps.config.allowPrivateEgress,
        resolver: createResolver(deps.config.dnsServers),
      },
      notices: { config: deps.config, mailer },
    }),
    ...outputActivities(deps),
    ...createPhoneActivities({ orm: deps.orm, box: createSecretBox(deps.config.secretKeys), config: deps.config }),
    ...createRetentionActivities({ orm: deps.orm, config: deps.config }),
    ...createConversationActivities({
      orm: deps.orm,
      models: deps.models,
      channels: deps.channels,
      config: deps.config,
    }),
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
