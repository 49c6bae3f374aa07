import type { z } from 'zod';
import { createCategory, listCategories } from '../../../domain/finance/categories';
import { getTransaction, listTransactions, updateTransaction } from '../../../domain/finance/transactions';
import { pageQuery } from '../../../domain/shared/pagination';
import { idParams } from '../../schemas/common';
import {
  categoryListOut,
  categoryOut,
  createCategoryBody,
  transactionListOut,
  transactionOut,
  transactionQuery,
  updateTransactionBody,
} from '../../schemas/finance';
import { defineRoute, type RouteDef } from '../route';

type IdParams = z.infer<typeof idParams>;

/** Transactions and categories (docs/api/finance.md). */
export function financeTransactionRoutes(): RouteDef[] {
  return [
    defineRoute<undefined, z.infer<typeof transactionQuery>>({
      method: 'GET',
      path: '/v1/finance/transactions',
      summary: 'List transactions, newest first, by date range, category or text',
      tag: 'finance',
      access: { auth: 'any', scope: 'finance:read' },
      query: transactionQuery,
      responses: { 200: { description: 'Transactions', schema: transactionListOut } },
      async handler(ctx, { query }) {
        ctx.body = await listTransactions(ctx.state.em, ctx.state.identity!, query);
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'GET',
      path: '/v1/finance/transactions/:id',
      summary: 'Get a transaction',
      tag: 'finance',
      access: { auth: 'any', scope: 'finance:read' },
      params: idParams,
      responses: { 200: { description: 'The transaction', schema: transactionOut } },
      async handler(ctx, { params }) {
        ctx.body = await getTransaction(ctx.state.em, ctx.state.identity!, params.id);
      },
    }),
    defineRoute<z.infer<typeof updateTransactionBody>, undefined, IdParams>({
      method: 'PATCH',
      path: '/v1/finance/transactions/:id',
      summary: "Edit a transaction's category, note or counterparty",
      tag: 'finance',
      access: { auth: 'any', scope: 'finance:write' },
      params: idParams,
      body: updateTransactionBody,
      responses: { 200: { description: 'The transaction', schema: transactionOut } },
      async handler(ctx, { params, body }) {
        ctx.body = await updateTransaction(ctx.state.em, ctx.state.identity!, params.id, body);
      },
    }),
    defineRoute<undefined, z.infer<typeof pageQuery>>({
      method: 'GET',
      path: '/v1/finance/categories',
      summary: 'List categories (the default chart and the workspace own), newest first',
      tag: 'finance',
      access: { auth: 'any', scope: 'finance:read' },
      query: pageQuery,
      responses: { 200: { description: 'Categories', schema: categoryListOut } },
      async handler(ctx, { query }) {
        ctx.body = await listCategories(ctx.state.em, ctx.state.identity!, query);
      },
    }),
    defineRoute<z.infer<typeof createCategoryBody>>({
      method: 'POST',
      path: '/v1/finance/categories',
      summary: 'Add a category',
      tag: 'finance',
      access: { auth: 'any', scope: 'finance:write' },
      body: createCategoryBody,
      responses: {
        201: { description: 'Created', schema: categoryOut },
        409: { description: '`conflict`: the name is taken' },
      },
      async handler(ctx, { body }) {
        ctx.body = await createCategory(ctx.state.em, ctx.state.identity!, body);
        ctx.status = 201;
      },
    }),
  ];
}
