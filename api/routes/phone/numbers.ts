import type { z } from 'zod';
import type { ModelRegistry } from '../../../domain/models/registry';
import { pageQuery } from '../../../domain/shared/pagination';
import { listPhoneModels, listVoices } from '../../../domain/phone/catalog';
import type { PhoneDeps } from '../../../domain/phone/deps';
import {
  createNumber,
  deleteNumber,
  getNumber,
  listNumbers,
  rotateSecret,
  updateNumber,
} from '../../../domain/phone/numbers';
import { idParams } from '../../schemas/common';
import {
  createNumberBody,
  numberCreatedOut,
  numberListOut,
  numberOut,
  phoneModelsOut,
  secretOut,
  updateNumberBody,
  voicesOut,
} from '../../schemas/phone';
import { defineRoute, type RouteDef } from '../route';

type IdParams = z.infer<typeof idParams>;
const read = { auth: 'any', scope: 'phone:read' } as const;
const manage = { auth: 'any', scope: 'phone:manage' } as const;

/** Phone voices and models, and numbers with their callback URLs (docs/api/phone.md). */
export function phoneNumberRoutes(deps: PhoneDeps & { models: ModelRegistry }): RouteDef[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/phone/voices',
      summary: 'Voices a phone agent may speak with (`settings.voice`)',
      tag: 'phone',
      access: read,
      responses: { 200: { description: 'Voices', schema: voicesOut } },
      async handler(ctx) {
        ctx.body = listVoices();
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/phone/models',
      summary: 'Models a phone agent may use',
      tag: 'phone',
      access: read,
      responses: { 200: { description: 'Models', schema: phoneModelsOut } },
      async handler(ctx) {
        ctx.body = listPhoneModels(deps.models);
      },
    }),
    defineRoute<z.infer<typeof createNumberBody>>({
      method: 'POST',
      path: '/v1/phone/numbers',
      summary: 'Connect a number to a phone agent; answers its callback URL once',
      tag: 'phone',
      access: manage,
      body: createNumberBody,
      idempotency: 'secret',
      responses: {
        201: { description: 'Connected; `callbackUrl` is shown this once', schema: numberCreatedOut },
        409: { description: '`conflict`: the number is connected already' },
      },
      async handler(ctx, { body }) {
        ctx.body = await createNumber(ctx.state.em, deps, ctx.state.identity!, body);
        ctx.status = 201;
      },
    }),
    defineRoute<undefined, z.infer<typeof pageQuery>>({
      method: 'GET',
      path: '/v1/phone/numbers',
      summary: 'List numbers, newest first',
      tag: 'phone',
      access: read,
      query: pageQuery,
      responses: { 200: { description: 'Numbers', schema: numberListOut } },
      async handler(ctx, { query }) {
        ctx.body = await listNumbers(ctx.state.em, deps, ctx.state.identity!, query);
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'GET',
      path: '/v1/phone/numbers/:id',
      summary: 'Get a number',
      tag: 'phone',
      access: read,
      params: idParams,
      responses: { 200: { description: 'The number', schema: numberOut } },
      async handler(ctx, { params }) {
        ctx.body = await getNumber(ctx.state.em, deps, ctx.state.identity!, params.id);
      },
    }),
    defineRoute<z.infer<typeof updateNumberBody>, undefined, IdParams>({
      method: 'PATCH',
      path: '/v1/phone/numbers/:id',
      summary: 'Move a number to another phone agent or replace its provider credentials',
      tag: 'phone',
      access: manage,
      params: idParams,
      body: updateNumberBody,
      responses: { 200: { description: 'The number', schema: numberOut } },
      async handler(ctx, { params, body }) {
        ctx.body = await updateNumber(ctx.state.em, deps, ctx.state.identity!, params.id, body);
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'DELETE',
      path: '/v1/phone/numbers/:id',
      summary: 'Remove a number; its callbacks answer 404 from now on, its calls stay',
      tag: 'phone',
      access: manage,
      params: idParams,
      responses: { 204: { description: 'Removed' } },
      async handler(ctx, { params }) {
        await deleteNumber(ctx.state.em, ctx.state.identity!, params.id);
        ctx.status = 204;
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'POST',
      path: '/v1/phone/numbers/:id/rotate-secret',
      summary: 'Replace the callback URL token; the old URL answers 404 at once',
      tag: 'phone',
      access: manage,
      params: idParams,
      idempotency: 'secret',
      responses: { 200: { description: 'The new callback URL, shown this once', schema: secretOut } },
      async handler(ctx, { params }) {
        ctx.body = await rotateSecret(ctx.state.em, deps, ctx.state.identity!, params.id);
      },
    }),
  ];
}
