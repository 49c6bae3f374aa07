import type { Middleware } from 'koa';
import type { AppContext, AppState } from '../../context';
import { ApiError, errors } from '../../../domain/errors';
import { appRunStatus, findAppByHost, findPublishedApp, isTerminal, startAppRun } from '../../../domain/apps/public';
import type { CreateRunDeps } from '../../../domain/runs/create';
import type { Storage } from '../../../platform/storage/storage';
import type { RateLimitStore } from '../../rateLimitStore';
import { clientSubject, enforceRateLimit } from '../../middleware/rateLimit';
import { formPage, statusPage } from './html';
import { readSubmission } from './submitBody';

export interface PublicFaceDeps extends CreateRunDeps {
  rateLimits: RateLimitStore;
  /** Where uploaded files go: the workspace's file library (docs/api/files.md). */
  storage: Storage;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SLUG_PATH = /^\/apps\/([^/]+)(\/runs(?:\/([^/]+))?)?\/?$/;
const HOST_PATH = /^(?:\/|\/runs(?:\/([^/]+))?\/?)$/;

/** Where the request points: an app by slug or by its verified custom domain, and which of its pages. */
interface Target {
  slug: string;
  /** `/apps/<slug>`, or '' on a custom domain; links on the pages are built from it. */
  base: string;
  page: 'form' | 'runs' | 'run';
  runId?: string;
}

async function resolveTarget(ctx: AppContext): Promise<Target | null> {
  const bySlug = SLUG_PATH.exec(ctx.path);
  if (bySlug) {
    let slug: string;
    try {
      slug = decodeURIComponent(bySlug[1]);
    } catch {
      throw errors.notFound('App');
    }
    const page = bySlug[3] !== undefined ? 'run' : bySlug[2] ? 'runs' : 'form';
    return { slug, base: `/apps/${encodeURIComponent(slug)}`, page, runId: bySlug[3] };
  }
  const byHost = HOST_PATH.exec(ctx.path);
  if (!byHost) return null;
  const app = await findAppByHost(ctx.state.em, ctx.hostname);
  if (!app) return null;
  const page = byHost[1] !== undefined ? 'run' : ctx.path.startsWith('/runs') ? 'runs' : 'form';
  return { slug: app.slug, base: '', page, runId: byHost[1] };
}

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

const ALLOWED: Record<Target['page'], string> = { form: 'GET', runs: 'POST', run: 'GET' };

/**
 * The public face of published apps, without a credential (docs/api/apps.md#public-pages): `GET /apps/<slug>`
 * (the form), `POST /apps/<slug>/runs` (start a run; JSON answers JSON, a browser form is redirected to the
 * status page), `GET /apps/<slug>/runs/<runId>?token=` (status and output, HTML or JSON). A request whose
 * `Host` is a verified custom domain gets the same at `/`, `/runs` and `/runs/<runId>`. Outside the `/v1`
 * router: no credential, but the request id and the error envelope of every response.
 */
export function publicFace(deps: PublicFaceDeps): Middleware<AppState> {
  return async (ctx, next) => {
    const target = await resolveTarget(ctx);
    if (!target) return next();
    const allowed = ALLOWED[target.page];
    const method = ctx.method === 'HEAD' ? 'GET' : ctx.method;
    if (method !== allowed) {
      if (ctx.method === 'OPTIONS') {
        ctx.set('Allow', allowed);
        ctx.status = 204;
        return;
      }
      throw errors.methodNotAllowed(ctx.method, [allowed]);
    }
    const em = ctx.state.em;
    const formUrl = target.base || '/';
    if (target.page === 'form') {
      const app = await findPublishedApp(em, target.slug);
      html(ctx, 200, formPage(app, `${target.base}/runs`, {}, [], deps.config.maxUploadBytes));
      return;
    }
    if (target.page === 'runs') {
      const app = await findPublishedApp(em, target.slug);
      // per app and client: one busy app does not lock a visitor out of the others
      const bucket = `app-run:${app.id}:${clientSubject(ctx.ip)}`;
      await enforceRateLimit(ctx, deps.rateLimits, bucket, deps.config.appRatePerMin);
      const { form, submission } = await readSubmission(ctx, deps, app);
      let started: { runId: string; token: string };
      try {
        started = await startAppRun(deps, em, target.slug, submission);
      } catch (err) {
        // A browser gets its form back with the problems next to the fields.
        if (form && err instanceof ApiError && err.code === 'validation_error') {
          const issues = (err.details?.issues ?? []) as Array<{ path: string; message: string }>;
          const values = submission.values as Record<string, string>;
          html(ctx, 400, formPage(app, `${target.base}/runs`, values, issues, deps.config.maxUploadBytes));
          return;
        }
        throw err;
      }
      const statusPath = `${target.base}/runs/${started.runId}?token=${encodeURIComponent(started.token)}`;
      secureHeaders(ctx);
      if (form) {
        ctx.status = 303;
        ctx.redirect(statusPath);
        return;
      }
      ctx.status = 201;
      ctx.body = {
        runId: started.runId,
        token: started.token,
        // from SVC_PUBLIC_URL, never the request's Host (which the caller writes), on a custom domain too
        statusUrl: `${deps.config.publicUrl}/apps/${encodeURIComponent(target.slug)}${statusPath.slice(target.base.length)}`,
      };
      return;
    }
    const token = typeof ctx.query.token === 'string' ? ctx.query.token : '';
    if (!target.runId || !UUID.test(target.runId) || !token || token.length > 200) throw errors.notFound('Run');
    const app = await findPublishedApp(em, target.slug);
    const run = await appRunStatus(em, target.slug, target.runId, token);
    if (ctx.accepts('html', 'json') === 'json') {
      secureHeaders(ctx);
      ctx.body = run;
      return;
    }
    const self = `${target.base}/runs/${run.runId}?token=${encodeURIComponent(token)}`;
    const autoRefresh = ctx.query.refresh !== 'off';
    if (autoRefresh && !isTerminal(run.status)) ctx.set('Refresh', '2');
    const links = { form: formUrl, auto: self, manual: `${self}&refresh=off` };
    html(ctx, 200, statusPage(app, run, links, autoRefresh));
  };
}
