import type { EntityManager } from '@mikro-orm/postgresql';
import { Flow } from '../../db/entities/Flow';
import { FlowRun } from '../../db/entities/FlowRun';
import { errors } from '../errors';

/** A flow of the workspace. Throws `not_found` for any other id, another workspace's included. */
export async function findFlow(em: EntityManager, workspaceId: string, id: string): Promise<Flow> {
  const flow = await em.findOne(Flow, { id, workspaceId });
  if (!flow) throw errors.notFound('Flow');
  return flow;
}

/** A flow run of the workspace. Throws `not_found` for any other id. */
export async function findFlowRun(em: EntityManager, workspaceId: string, id: string): Promise<FlowRun> {
  const run = await em.findOne(FlowRun, { id, workspaceId });
  if (!run) throw errors.notFound('Flow run');
  return run;
}
