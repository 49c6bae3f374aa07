import type { Middleware } from 'koa';
import type { AppContext, AppState } from '../../context';
import { ApiError, errors } from '../../../domain/errors';
import {
  appRunStatus,
  findAppByHost,
  findPublishedApp,
  isTerminal,
  startAppRun,
  type StartedAppRun,
} from '../../../domain/apps/public';
import type { CreateRunDeps } from '../../../domain/runs/create';
import type { Storage } from '../../../platform/storage/storage';
import type { RateLimitStore } from '../../rateLimitStore';
import { clientSubject, enforceRateLimit } from '../../middleware/rateLimit';
import { sentKey } from '../../middleware/idempotency';
import { publicRunParams, publicRunQuery } from '../../schemas/publicApps';
import { formPage, statusPage } from './html';
import { readSubmission } from './submitBody';

export interface PublicFaceDeps extends CreateRunDeps {
  rateLimits: RateLimitStore;
  /** Where uploaded files go: the workspace's file library (docs/api/files.md). */
  storage: Storage;
}

const HOST_PATH = /^(?:\/|\/runs(?:\/([^/]+))?\/?)$/;

/** Which app a page belongs to: `/apps/<slug>` (`base`), or '' on a custom domain; links are built from it. */
export interface AppPage {
  slug: string;
  base: string;
}

/** The page of an app by its slug, under `/apps/<slug>`. */
export const slugPage = (slug: string): AppPage => ({ slug, base: `/apps/${encodeURIComponent(slug)}` });

// The token of the status page travels in its URL: no referrer may carry it elsewhere.
function secureHeaders(ctx: AppContext): void {
  ctx.set(
    'Content-Security-Policy',
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  );
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Cache-Control', 'no-store');
}

function html(ctx: AppContext, status: number, body: string): void {
  secureHeaders(ctx);
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = body;
}

/** `GET /apps/<slug>`: the form of a published app. */
export async function showForm(ctx: AppContext, deps: PublicFaceDeps, page: AppPage): Promise<void> {
  const app = await findPublishedApp(ctx.state.em, page.slug);
  html(ctx, 200, formPage(app, `${page.base}/runs`, {}, [], deps.config.maxUploadBytes));
}

/**
 * `POST /apps/<slug>/runs`: starts a run. JSON answers 201 `{ runId, token, statusUrl }` (200 for a replay
 * under the same `Idempotency-Key`), a browser form is redirected to the status page or gets its form back
 * with the problems next to the fields.
 */
export async function submitRun(ctx: AppContext, deps: PublicFaceDeps, page: AppPage): Promise<void> {
  const em = ctx.state.em;
  const key = sentKey(ctx);
  const app = await findPublishedApp(em, page.slug);
  const client = clientSubject(ctx.ip);
  // per app and client: one busy app does not lock a visitor out of the others
  await enforceRateLimit(ctx, deps.rateLimits, `app-run:${app.id}:${client}`, deps.config.appRatePerMin);
  const { form, submission } = await readSubmission(ctx, deps, app);
  let started: StartedAppRun;
  try {
    started = await startAppRun(deps, em, page.slug, submission, key === null ? null : { key, client });
  } catch (err) {
    // A browser gets its form back with the problems next to the fields.
    if (form && err instanceof ApiError && err.code === 'validation_error') {
      const issues = (err.details?.issues ?? []) as Array<{ path: string; message: string }>;
      const values = submission.values as Record<string, string>;
      html(ctx, 400, formPage(app, `${page.base}/runs`, values, issues, deps.config.maxUploadBytes));
      return;
    }
    throw err;
  }
  const statusPath = `${page.base}/runs/${started.runId}?token=${encodeURIComponent(started.token)}`;
  secureHeaders(ctx);
  if (form) {
    ctx.status = 303;
    ctx.redirect(statusPath);
    return;
  }
  ctx.status = started.replayed ? 200 : 201;
  ctx.body = {
    runId: started.runId,
    token: started.token,
    // from SVC_PUBLIC_URL, never the request's Host (which the caller writes), on a custom domain too
    statusUrl: `${deps.config.publicUrl}/apps/${encodeURIComponent(page.slug)}${statusPath.slice(page.base.length)}`,
  };
}

/** `GET /apps/<slug>/runs/<runId>?token=`: the run's status and output, as HTML or JSON (`Accept`). */
export async function showRun(
  ctx: AppContext,
  page: AppPage,
  runId: string,
  query: { token: string; refresh?: string },
): Promise<void> {
  const em = ctx.state.em;
  const app = await findPublishedApp(em, page.slug);
  const run = await appRunStatus(em, page.slug, runId, query.token);
  if (ctx.accepts('html', 'json') === 'json') {
    secureHeaders(ctx);
    ctx.body = run;
    return;
  }
  const self = `${page.base}/runs/${run.runId}?token=${encodeURIComponent(query.token)}`;
  const autoRefresh = query.refresh !== 'off';
  if (autoRefresh && !isTerminal(run.status)) ctx.set('Refresh', '2');
  const links = { form: page.base || '/', auto: self, manual: `${self}&refresh=off` };
  html(ctx, 200, statusPage(app, run, links, autoRefresh));
}

/**
 * A verified custom domain serves its app's public pages (docs/api/apps.md#custom-domains): a request whose
 * `Host` is one gets at `/`, `/runs` and `/runs/<runId>` what `/apps/<slug>…` answers (the declared routes of
 * api/routes/apps/publicRoutes.ts, whose schemas check the same input here). Any other request passes on.
 */
export function publicFace(deps: PublicFaceDeps): Middleware<AppState> {
  return async (ctx, next) => {
    const byHost = HOST_PATH.exec(ctx.path);
    if (!byHost) return next();
    const app = await findAppByHost(ctx.state.em, ctx.hostname);
    if (!app) return next();
    const page: AppPage = { slug: app.slug, base: '' };
    const kind = byHost[1] !== undefined ? 'run' : ctx.path.startsWith('/runs') ? 'runs' : 'form';
    const allowed = kind === 'runs' ? 'POST' : 'GET';
    const method = ctx.method === 'HEAD' ? 'GET' : ctx.method;
    if (method !== allowed) {
      if (ctx.method === 'OPTIONS') {
        ctx.set('Allow', allowed);
        ctx.status = 204;
        return;
      }
      throw errors.methodNotAllowed(ctx.method, [allowed]);
    }
    if (kind === 'form') return showForm(ctx, deps, page);
    if (kind === 'runs') return submitRun(ctx, deps, page);
    const params = publicRunParams.safeParse({ slug: app.slug, runId: byHost[1] });
    if (!params.success) throw errors.notFound('Run');
    const query = publicRunQuery.safeParse(ctx.query);
    if (!query.success) throw errors.notFound('Run');
    return showRun(ctx, page, params.data.runId, query.data);
  };
}
