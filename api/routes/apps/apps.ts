import type { z } from 'zod';
import { appUsage } from '../../../domain/apps/usage';
import { createApp, deleteApp, getApp, listApps, pauseApp, publishApp, updateApp } from '../../../domain/apps/apps';
import { APP_TEMPLATES } from '../../../domain/apps/templates';
import { pageQuery } from '../../../domain/shared/pagination';
import {
  appListOut,
  appOut,
  appTemplateListOut,
  appUsageOut,
  appUsageQuery,
  createAppBody,
  updateAppBody,
} from '../../schemas/apps';
import { idParams } from '../../schemas/common';
import { auditContext } from '../../auditContext';
import { defineRoute, type RouteDef } from '../route';

type IdParams = z.infer<typeof idParams>;
const access = { auth: 'any', scope: 'apps:manage' } as const;
const tag = 'apps';

/** Published apps: CRUD, publish and pause, usage, templates (docs/api/apps.md). */
export function appRoutes(): RouteDef[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/app-templates',
      summary: 'Built-in app templates',
      tag,
      access,
      responses: { 200: { description: 'Templates', schema: appTemplateListOut } },
      async handler(ctx) {
        ctx.body = { templates: APP_TEMPLATES };
      },
    }),
    defineRoute<z.infer<typeof createAppBody>>({
      method: 'POST',
      path: '/v1/apps',
      summary: 'Create a draft app, optionally from a template',
      tag,
      access,
      body: createAppBody,
      responses: { 201: { description: 'Created', schema: appOut }, 409: { description: 'Slug taken' } },
      async handler(ctx, { body }) {
        ctx.body = await createApp(ctx.state.em, ctx.state.identity!, body);
        ctx.status = 201;
      },
    }),
    defineRoute<undefined, z.infer<typeof pageQuery>>({
      method: 'GET',
      path: '/v1/apps',
      summary: 'List apps, newest first',
      tag,
      access,
      query: pageQuery,
      responses: { 200: { description: 'Apps', schema: appListOut } },
      async handler(ctx, { query }) {
        ctx.body = await listApps(ctx.state.em, ctx.state.identity!, query);
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'GET',
      path: '/v1/apps/:id',
      summary: 'Get an app',
      tag,
      access,
      params: idParams,
      responses: { 200: { description: 'The app', schema: appOut } },
      async handler(ctx, { params }) {
        ctx.body = await getApp(ctx.state.em, ctx.state.identity!, params.id);
      },
    }),
    defineRoute<z.infer<typeof updateAppBody>, undefined, IdParams>({
      method: 'PATCH',
      path: '/v1/apps/:id',
      summary: 'Change an app',
      tag,
      access,
      params: idParams,
      body: updateAppBody,
      responses: { 200: { description: 'The app', schema: appOut }, 409: { description: 'Slug taken' } },
      async handler(ctx, { params, body }) {
        ctx.body = await updateApp(ctx.state.em, ctx.state.identity!, params.id, body);
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'DELETE',
      path: '/v1/apps/:id',
      summary: 'Delete an app and its domains; its runs stay',
      tag,
      access,
      params: idParams,
      responses: { 204: { description: 'Deleted' } },
      async handler(ctx, { params }) {
        await deleteApp(ctx.state.em, ctx.state.identity!, params.id);
        ctx.status = 204;
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'POST',
      path: '/v1/apps/:id/publish',
      summary: 'Publish an app: its public page answers',
      tag,
      access,
      params: idParams,
      responses: { 200: { description: 'The app', schema: appOut } },
      async handler(ctx, { params }) {
        ctx.body = await publishApp(ctx.state.em, ctx.state.identity!, params.id, auditContext(ctx));
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'POST',
      path: '/v1/apps/:id/pause',
      summary: 'Pause a published app: its public page answers 404',
      tag,
      access,
      params: idParams,
      responses: { 200: { description: 'The app', schema: appOut }, 409: { description: 'The app is a draft' } },
      async handler(ctx, { params }) {
        ctx.body = await pauseApp(ctx.state.em, ctx.state.identity!, params.id, auditContext(ctx));
      },
    }),
    defineRoute<undefined, z.infer<typeof appUsageQuery>, IdParams>({
      method: 'GET',
      path: '/v1/apps/:id/usage',
      summary: 'Runs made through an app, their cost and what its price list bills',
      tag,
      access,
      params: idParams,
      query: appUsageQuery,
      responses: { 200: { description: 'Usage', schema: appUsageOut } },
      async handler(ctx, { params, query }) {
        ctx.body = await appUsage(ctx.state.em, ctx.state.identity!, params.id, query);
      },
    }),
  ];
}
