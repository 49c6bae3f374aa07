import type { z } from 'zod';
import {
  publicAppParams,
  publicRunOut,
  publicRunParams,
  publicRunQuery,
  submissionBodies,
  submittedOut,
} from '../../schemas/publicApps';
import { defineRoute, type RouteDef } from '../route';
import { showForm, showRun, slugPage, submitRun, type PublicFaceDeps } from './publicFace';

const html = 'text/html';
const tag = 'public apps';
const notPublished = '`not_found`: no published app by that slug (a draft or a paused one included)';

/**
 * A published app's public pages, without a credential (docs/api/apps.md#public-pages). A verified custom
 * domain serves the same at `/`, `/runs` and `/runs/{runId}` (api/routes/apps/publicFace.ts).
 */
export function publicAppRoutes(deps: PublicFaceDeps): RouteDef[] {
  return [
    defineRoute<undefined, undefined, z.infer<typeof publicAppParams>>({
      method: 'GET',
      path: '/apps/:slug',
      summary: 'The form of a published app (HTML)',
      tag,
      access: { auth: 'public' },
      params: publicAppParams,
      responses: {
        200: { description: 'The form', contentType: html },
        404: { description: notPublished },
      },
      handler: (ctx, { params }) => showForm(ctx, deps, slugPage(params.slug)),
    }),
    defineRoute<undefined, undefined, z.infer<typeof publicAppParams>>({
      method: 'POST',
      path: '/apps/:slug/runs',
      summary: "Submit the app's form: starts a run of its agent, charged to its workspace (optional Idempotency-Key)",
      tag,
      access: { auth: 'public' },
      params: publicAppParams,
      // The run keeps the key, per app and client, in the transaction that creates it (domain/apps/public.ts).
      idempotency: 'own',
      rawBody: {
        contentTypes: Object.keys(submissionBodies),
        description:
          "The form's values: JSON or a browser's form answer JSON; multipart answers a browser form unless `Accept` prefers JSON",
        schemas: submissionBodies,
      },
      responses: {
        201: { description: 'Started: the run and the token of its status page', schema: submittedOut },
        200: { description: 'Replay of a submission under the same Idempotency-Key', schema: submittedOut },
        303: { description: 'A browser form: redirected to the status page' },
        400: {
          description: '`validation_error`: the values do not fit the form (a browser form gets it back, HTML)',
          contentType: html,
        },
        402: { description: '`billing.insufficient_credits`: the app cannot take more runs right now' },
        404: { description: notPublished },
        409: {
          description:
            '`conflict`: the Idempotency-Key was used for another submission, or its run’s token cannot be shown again; or the app cannot take files right now',
        },
        429: { description: '`rate_limited`: too many submissions from this client to this app; see `Retry-After`' },
      },
      handler: (ctx, { params }) => submitRun(ctx, deps, slugPage(params.slug)),
    }),
    defineRoute<undefined, z.infer<typeof publicRunQuery>, z.infer<typeof publicRunParams>>({
      method: 'GET',
      path: '/apps/:slug/runs/:runId',
      summary: 'A run started through the app, for the holder of its token: status and output (HTML or JSON)',
      tag,
      access: { auth: 'public' },
      params: publicRunParams,
      query: publicRunQuery,
      credentialInQuery: true,
      responses: {
        200: { description: 'The run', schema: publicRunOut, contentType: html },
        404: { description: '`not_found`: no such run of this app for this token, or the app is not published' },
      },
      handler: (ctx, { params, query }) => showRun(ctx, slugPage(params.slug), params.runId, query),
    }),
  ];
}
