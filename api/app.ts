import type { AbstractSqlConnection, EntityManager } from '@mikro-orm/postgresql';
import Koa from 'koa';
import type { Orm } from '../db/orm';
import type { Config } from '../platform/config';
import type { AppState } from './context';
import type { Logger } from '../platform/logger';
import type { Mailer } from '../platform/mailer';
import { consoleStatic } from './console';
import { accessLog } from './middleware/accessLog';
import { errorHandler } from './middleware/errors';
import { requestId } from './middleware/requestId';
import { buildOpenApi } from './openapi';
import { KeyRateLimiter } from './keyRateLimit';
import { RateLimitStore } from './rateLimitStore';
import { ApiKeyCache } from '../domain/identity/apiKeyCache';
import { PgListener } from '../platform/database/listener';
import { buildRouter, notFound } from './router';
import { apiKeyRoutes } from './routes/apiKeys';
import { auditRoutes } from './routes/audit';
import { workspaceMemberRoutes } from './routes/workspaceMembers';
import { consoleAuthRoutes } from './routes/consoleAuth';
import { healthRoutes } from './routes/health';
import type { RouteDef } from './routes/route';
import type { Temporal } from '../platform/temporal';
import { createModelRegistry, type ModelRegistry } from '../domain/models/registry';
import { createToolRegistry } from '../domain/tools/registry';
import { registerAreaTools, registerOutboxCalls } from '../domain/plugins';
import { createResolver, createTxtResolver } from '../platform/net/dnsServers';
import { RunEventHub } from '../domain/runs/eventHub';
import { agentRoutes } from './routes/agents';
import { appRoutes } from './routes/apps/apps';
import { appDomainRoutes } from './routes/apps/domains';
import { publicFace } from './routes/apps/publicFace';
import { approvalLinkRoutes } from './routes/approvalLinks';
import { publicAppRoutes } from './routes/apps/publicRoutes';
import { agentVersionRoutes } from './routes/agents/versions';
import { catalogRoutes } from './routes/catalog';
import { fileRoutes } from './routes/files';
import { folderRoutes } from './routes/folders';
import { localRunRoutes } from './routes/localRuns';
import { priceListRoutes } from './routes/pricing/priceLists';
import { pricingRuleRoutes } from './routes/pricing/rules';
import { projectMemberRoutes } from './routes/projects/members';
import { projectRoutes } from './routes/projects/projects';
import { financeImportRoutes } from './routes/finance/imports';
import { financeReportRoutes } from './routes/finance/reports';
import { financeRuleRoutes } from './routes/finance/rules';
import { financeRunRoutes } from './routes/finance/runs';
import { financeTransactionRoutes } from './routes/finance/transactions';
import { runActionRoutes } from './routes/runActions';
import { runEventRoutes } from './routes/runEvents';
import { runRoutes } from './routes/runs';
import { runShareRoutes } from './routes/runShares';
import { runInputFileRoutes } from './routes/runInputFiles';
import { runReportRoutes } from './routes/runReports';
import { outputConnectionRoutes } from './routes/outputs/connections';
import { usageRoutes } from './routes/usage';
import { webhookRoutes } from './routes/webhooks';
import { knowledgeDocumentRoutes } from './routes/knowledge/documents';
import { knowledgeSearchRoutes } from './routes/knowledge/search';
import { searchRoutes } from './routes/search';
import { evalRoutes } from './routes/evals/evals';
import { proposalRoutes } from './routes/proposals/proposals';
import { flowRoutes } from './routes/flows/flows';
import { flowRunRoutes } from './routes/flows/flowRuns';
import { flowHookRoutes } from './routes/flows/hooks';
import { createStorage, type Storage } from '../platform/storage/storage';
import { dataSourceRoutes } from './routes/dataSources/dataSources';
import { dataSourceBrowseRoutes, dataSourceUploadRoutes } from './routes/dataSources/browse';
import { sourceDeps } from './routes/dataSources/deps';
import { tutorRoutes } from './routes/tutor/sessions';
import { copilotRoutes } from './routes/copilots/copilots';
import { copilotSessionRoutes } from './routes/copilots/sessions';
import { savedTableRoutes } from './routes/savedTables/savedTables';
import { phoneNumberRoutes } from './routes/phone/numbers';
import { phoneAgentRoutes } from './routes/phone/agents';
import { phoneCallRoutes } from './routes/phone/calls';
import { phoneCalendarRoutes } from './routes/phone/calendar';
import { phoneHookRoutes } from './routes/phone/hooks';
import { createSecretBox } from '../platform/secrets';
import { codecServer } from './codec';
import { conversationEngine } from '../domain/phone/conversationEngine';
import { whatsappAccountRoutes } from './routes/whatsapp/accounts';
import { whatsappConversationRoutes } from './routes/whatsapp/conversations';
import { replyDeps } from '../domain/whatsapp/adapter';
import { whatsappHookRoutes } from './routes/whatsapp/hooks';
import { createMetrics, metricsObserver, type Metrics } from '../platform/metrics/registry';
import { registerObserver } from '../domain/shared/observations';
import { requestMetrics } from './middleware/metrics';
import { metricsEndpoint } from './metricsEndpoint';
import { registerDatabaseGauges } from './databaseGauges';
import { requestTracing } from './middleware/tracing';

export interface AppDeps {
  config: Config;
  orm: Orm;
  logger: Logger;
  temporal: Temporal;
  mailer: Mailer;
  /** Defaults to the registry the configuration describes. */
  models?: ModelRegistry;
  /** Defaults to the storage `SVC_STORAGE_URL` names (docs/api/files.md). */
  storage?: Storage;
  /** The process's metrics (docs/operations.md#metrics); defaults to a registry of the app's own. */
  metrics?: Metrics;
}

/**
 * The OpenAPI document's `info.version` (docs/versioning.md): the major is the path prefix's (`/v1` → 1), the
 * minor grows with each additive change, the patch with fixes to the document alone.
 */
export const API_VERSION = '1.0.0';

/** Every declared route of the API, in one list: the router and the OpenAPI document both read it. */
export function declareRoutes(
  deps: AppDeps & { hub: RunEventHub; rateLimits: RateLimitStore; apiKeys: ApiKeyCache; metrics: Metrics },
): RouteDef[] {
  const routes: RouteDef[] = [];
  const models = deps.models ?? createModelRegistry(deps.config.openai);
  // The API lists the tools and never runs one, so the areas' tools get no database or storage here.
  const tools = registerAreaTools(
    createToolRegistry({
      allowPrivate: deps.config.allowPrivateEgress,
      resolver: createResolver(deps.config.dnsServers),
    }),
    {},
  );
  const storage = deps.storage ?? createStorage(deps.config.storageUrl, deps.config.s3);
  // One box for every route that seals provider credentials and webhook secrets (platform/secrets.ts).
  const box = createSecretBox(deps.config.secretKeys);
  const whatsapp = { box, publicUrl: deps.config.publicUrl, config: deps.config, temporal: deps.temporal };
  const sources = sourceDeps(deps.config);
  const openapi = () => (cachedDoc ??= buildOpenApi(routes, API_VERSION));
  let cachedDoc: Record<string, unknown> | undefined;
  routes.push(
    ...healthRoutes({ temporal: deps.temporal, logger: deps.logger, openapi }),
    ...consoleAuthRoutes({ config: deps.config, mailer: deps.mailer }),
    ...apiKeyRoutes({ apiKeys: deps.apiKeys }),
    ...auditRoutes(),
    ...workspaceMemberRoutes(),
    ...catalogRoutes({ models, tools }),
    ...agentRoutes({ models, tools }),
    ...agentVersionRoutes({ models, tools }),
    ...evalRoutes({ temporal: deps.temporal, config: deps.config }),
    ...proposalRoutes({ models, tools }),
    // before /v1/runs/:id, which would otherwise take `input-files` for a run id (literal paths come first)
    ...runInputFileRoutes(),
    ...runRoutes({ config: deps.config, temporal: deps.temporal, models }),
    ...runActionRoutes({ temporal: deps.temporal, config: deps.config }),
    ...approvalLinkRoutes({ temporal: deps.temporal, config: deps.config }),
    ...runEventRoutes({ hub: deps.hub, config: deps.config, streamsOpen: deps.metrics.streamsOpen }),
    ...localRunRoutes({ config: deps.config, temporal: deps.temporal, orm: deps.orm, logger: deps.logger }),
    ...webhookRoutes({ config: deps.config, temporal: deps.temporal }),
    ...outputConnectionRoutes({ config: deps.config, temporal: deps.temporal }),
    ...runShareRoutes({ config: deps.config }),
    ...runReportRoutes({ config: deps.config }),
    ...usageRoutes(),
    ...fileRoutes({ config: deps.config, storage }),
    ...folderRoutes(),
    ...projectRoutes(),
    ...projectMemberRoutes(),
    ...priceListRoutes({ models }),
    ...pricingRuleRoutes({ models }),
    // the search route first: `/v1/knowledge/search` is not a document id
    ...knowledgeSearchRoutes(),
    ...knowledgeDocumentRoutes({ config: deps.config, storage }),
    ...searchRoutes(),
    ...dataSourceRoutes({ sources }),
    ...dataSourceBrowseRoutes({ sources }),
    ...dataSourceUploadRoutes({ config: deps.config, storage }),
    ...savedTableRoutes({
      temporal: deps.temporal,
      config: deps.config.temporal,
      minScheduleMinutes: deps.config.minScheduleMinutes,
      refreshRatePerMin: deps.config.refreshRatePerMin,
      rateLimits: deps.rateLimits,
    }),
    ...appRoutes(),
    ...appDomainRoutes({ resolveTxt: createTxtResolver(deps.config.dnsServers) }),
    ...publicAppRoutes({ config: deps.config, temporal: deps.temporal, models, rateLimits: deps.rateLimits, storage }),
    ...flowRoutes({ config: deps.config, temporal: deps.temporal, box }),
    ...flowRunRoutes({ config: deps.config, temporal: deps.temporal, box }),
    ...flowHookRoutes({ config: deps.config, temporal: deps.temporal, box, rateLimits: deps.rateLimits }),
    ...phoneNumberRoutes({ box, config: deps.config, models }),
    ...phoneAgentRoutes({ models, tools }),
    ...phoneCallRoutes({ temporal: deps.temporal, config: deps.config, box }),
    ...phoneCalendarRoutes(),
    ...phoneHookRoutes({
      box,
      config: deps.config,
      engine: conversationEngine({ temporal: deps.temporal, config: deps.config }),
      rateLimits: deps.rateLimits,
    }),
    ...tutorRoutes({ config: deps.config, temporal: deps.temporal }),
    ...copilotRoutes({ config: deps.config, temporal: deps.temporal, agents: { models, tools }, sources }),
    ...copilotSessionRoutes(),
    ...whatsappAccountRoutes(whatsapp),
    ...whatsappConversationRoutes(replyDeps(deps.config)),
    ...whatsappHookRoutes({ ...whatsapp, rateLimits: deps.rateLimits }),
    ...financeImportRoutes({ config: deps.config, storage }),
    ...financeTransactionRoutes(),
    ...financeRuleRoutes(),
    ...financeReportRoutes(),
    ...financeRunRoutes({ config: deps.config, temporal: deps.temporal, models, tools }),
  );
  return routes;
}

/** A request's `ctx.state`: the EntityManager is forked on first use. */
class RequestState implements AppState {
  requestId = '';
  identity?: AppState['identity'];
  input: AppState['input'] = { body: undefined, query: undefined, params: undefined };
  private forked?: EntityManager;

  constructor(
    private readonly root: EntityManager,
    readonly db: AbstractSqlConnection,
  ) {}

  get em(): EntityManager {
    return (this.forked ??= this.root.fork());
  }
}

/** Builds the Koa application from its dependencies; no globals, so tests build as many as they like. */
export function createApp(deps: AppDeps): {
  app: Koa<AppState>;
  routes: RouteDef[];
  router: ReturnType<typeof buildRouter>;
  metrics: Metrics;
  close: () => Promise<void>;
} {
  // With N trusted proxy hops, ctx.ip is the X-Forwarded-For entry N from the right (docs/api/limits.md).
  const hops = deps.config.trustProxyHops;
  registerOutboxCalls();
  const app = new Koa<AppState>({ proxy: hops > 0, maxIpsCount: hops });
  // One LISTEN connection per process (platform/database/listener.ts) for the event streams and the key cache,
  // which trusts itself only while it listens.
  const listener = new PgListener(deps.config.databaseUrl, deps.logger);
  const hub = new RunEventHub(listener);
  const models = deps.models ?? createModelRegistry(deps.config.openai);
  const rateLimits = new RateLimitStore();
  // One storage for the routes and the public face, which stores an app submission's files.
  const storage = deps.storage ?? createStorage(deps.config.storageUrl, deps.config.s3);
  const apiKeys = new ApiKeyCache(listener);
  // the process's own series only when someone may scrape them (a test builds many apps in one process)
  const metrics = deps.metrics ?? createMetrics({ processMetrics: Boolean(deps.config.observability.metricsToken) });
  const unobserve = registerObserver(metricsObserver(metrics));
  registerDatabaseGauges(metrics, deps.orm);
  const routes = declareRoutes({ ...deps, models, hub, rateLimits, storage, apiKeys, metrics });
  // API keys' limits are spent from small leases of the shared counter (api/keyRateLimit.ts).
  const keyLimits = new KeyRateLimiter(deps.orm.em);
  const router = buildRouter(routes, { config: deps.config, rateLimits, keyLimits, apiKeys });

  // One EntityManager per request, forked only when the request first uses it: an API key request to
  // GET /v1/runs/{id} runs its statements on `db` and never needs one (bench/README.md, case 4). The
  // state is an instance with the fork behind a getter of its class, set up first, so the rest of the
  // chain finds it; a per-request accessor property cost more than the fork it saves.
  const db = deps.orm.em.getConnection();
  const rootEm = deps.orm.em;
  app.use((ctx, next) => {
    ctx.state = new RequestState(rootEm, db);
    return next();
  });
  // With OTEL_EXPORTER_OTLP_ENDPOINT, each request is a server span, the root of what it causes.
  if (deps.config.observability.otlpEndpoint) app.use(requestTracing());
  app.use(requestId());
  app.use(accessLog(deps.logger));
  app.use(requestMetrics(metrics));
  app.use(errorHandler(deps.logger));
  // Prometheus's scrape (docs/operations.md#metrics): 404 unless SVC_METRICS_TOKEN is set.
  app.use(metricsEndpoint(metrics, deps.config.observability.metricsToken));
  // The console's static files (docs/console.md): before the router, and only under /console/.
  app.use(consoleStatic(deps.config));
  // Temporal's remote codec endpoint for operators (docs/operations.md): 404 unless SVC_CODEC_TOKEN is set.
  app.use(codecServer(deps.config));
  // Published apps' pages on their verified custom domains (docs/api/apps.md); `/apps/<slug>` is declared.
  app.use(publicFace({ config: deps.config, temporal: deps.temporal, models, rateLimits, storage }));
  app.use(notFound(router));
  app.use(router.routes());
  // Koa's own error event would print stacks for errors we already rendered; our middleware logs them.
  app.silent = true;
  return {
    app,
    routes,
    router,
    metrics,
    close: async () => {
      unobserve();
      keyLimits.close();
      hub.close();
      await listener.close();
    },
  };
}
