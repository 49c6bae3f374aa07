import type { z } from 'zod';
import { pageQuery } from '../../../domain/shared/pagination';
import {
  createPriceList,
  deletePriceList,
  getPriceList,
  listPriceLists,
  updatePriceList,
} from '../../../domain/pricing/priceLists';
import { quote } from '../../../domain/pricing/quote';
import type { PricingDeps } from '../../../domain/pricing/rules';
import { idParams } from '../../schemas/common';
import {
  createPriceListBody,
  priceListListOut,
  priceListOut,
  quoteOut,
  quoteQuery,
  updatePriceListBody,
} from '../../schemas/pricing';
import { defineRoute, type RouteDef } from '../route';

type IdParams = z.infer<typeof idParams>;

/** Price lists: what a workspace charges its own customers, and quotes (docs/api/pricing.md). */
export function priceListRoutes(deps: PricingDeps): RouteDef[] {
  return [
    defineRoute<z.infer<typeof createPriceListBody>>({
      method: 'POST',
      path: '/v1/price-lists',
      summary: 'Create a price list (isDefault makes it the only default)',
      tag: 'pricing',
      access: { auth: 'any', scope: 'agents:write' },
      body: createPriceListBody,
      responses: { 201: { description: 'Created', schema: priceListOut } },
      async handler(ctx, { body }) {
        ctx.body = await createPriceList(ctx.state.em, ctx.state.identity!, body);
        ctx.status = 201;
      },
    }),
    defineRoute<undefined, z.infer<typeof pageQuery>>({
      method: 'GET',
      path: '/v1/price-lists',
      summary: 'List price lists, newest first',
      tag: 'pricing',
      access: { auth: 'any', scope: 'agents:read' },
      query: pageQuery,
      responses: { 200: { description: 'Price lists', schema: priceListListOut } },
      async handler(ctx, { query }) {
        ctx.body = await listPriceLists(ctx.state.em, ctx.state.identity!, query);
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'GET',
      path: '/v1/price-lists/:id',
      summary: 'Get a price list',
      tag: 'pricing',
      access: { auth: 'any', scope: 'agents:read' },
      params: idParams,
      responses: { 200: { description: 'The price list', schema: priceListOut } },
      async handler(ctx, { params }) {
        ctx.body = await getPriceList(ctx.state.em, ctx.state.identity!, params.id);
      },
    }),
    defineRoute<z.infer<typeof updatePriceListBody>, undefined, IdParams>({
      method: 'PATCH',
      path: '/v1/price-lists/:id',
      summary: 'Rename a price list or change whether it is the default',
      tag: 'pricing',
      access: { auth: 'any', scope: 'agents:write' },
      params: idParams,
      body: updatePriceListBody,
      responses: { 200: { description: 'The price list', schema: priceListOut } },
      async handler(ctx, { params, body }) {
        ctx.body = await updatePriceList(ctx.state.em, ctx.state.identity!, params.id, body);
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'DELETE',
      path: '/v1/price-lists/:id',
      summary: 'Delete a price list and its rules',
      tag: 'pricing',
      access: { auth: 'any', scope: 'agents:write' },
      params: idParams,
      responses: { 204: { description: 'Deleted' } },
      async handler(ctx, { params }) {
        await deletePriceList(ctx.state.em, ctx.state.identity!, params.id);
        ctx.status = 204;
      },
    }),
    defineRoute<undefined, z.infer<typeof quoteQuery>, IdParams>({
      method: 'GET',
      path: '/v1/price-lists/:id/quote',
      summary: 'What the list asks for one run of an agent with these tokens, and the rule that priced it',
      tag: 'pricing',
      access: { auth: 'any', scope: 'agents:read' },
      params: idParams,
      query: quoteQuery,
      responses: { 200: { description: 'The quote', schema: quoteOut } },
      async handler(ctx, { params, query }) {
        ctx.body = await quote(ctx.state.em, deps, ctx.state.identity!, params.id, query);
      },
    }),
  ];
}
