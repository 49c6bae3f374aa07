import type { EntityManager } from '@mikro-orm/postgresql';
import { Agent } from '../../db/entities/Agent';
import { App, AppDomain } from '../../db/entities/App';
import { PriceList } from '../../db/entities/PriceList';
import { errors } from '../errors';

/** Loads an app of the workspace. Throws `not_found` for any other id, another workspace's app included. */
export async function findApp(em: EntityManager, workspaceId: string, id: string): Promise<App> {
  const app = await em.findOne(App, { id, workspace: workspaceId });
  if (!app) throw errors.notFound('App');
  return app;
}

/** The domains of some apps, by app id, oldest first. */
export async function domainsOf(em: EntityManager, appIds: string[]): Promise<Map<string, AppDomain[]>> {
  const byApp = new Map<string, AppDomain[]>(appIds.map((id) => [id, []]));
  if (appIds.length === 0) return byApp;
  const rows = await em.find(AppDomain, { app: { $in: appIds } }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  for (const d of rows) byApp.get(d.app.id)?.push(d);
  return byApp;
}

/** The live agent a body names (`agentId`); a body id of no agent of the workspace is 400 at that path. */
export async function agentFromBody(em: EntityManager, workspaceId: string, agentId: string): Promise<Agent> {
  const agent = await em.findOne(Agent, { id: agentId, workspace: workspaceId, deletedAt: null });
  if (!agent) throw errors.validation([{ path: 'agentId', message: `Unknown agent ${agentId}` }]);
  return agent;
}

/** The price list a body names; `null`/`undefined` pass through; an unknown one is 400 at `priceListId`. */
export async function priceListFromBody(
  em: EntityManager,
  workspaceId: string,
  priceListId: string | null | undefined,
): Promise<PriceList | null | undefined> {
  if (priceListId === null || priceListId === undefined) return priceListId;
  const list = await em.findOne(PriceList, { id: priceListId, workspace: workspaceId });
  if (!list) throw errors.validation([{ path: 'priceListId', message: `Unknown price list ${priceListId}` }]);
  return list;
}
