import type { EntityManager } from '@mikro-orm/postgresql';
import { Eval } from '../../db/entities/Eval';
import { EvalRun } from '../../db/entities/EvalRun';
import { errors } from '../errors';

/** An eval of the workspace. Throws `not_found` for any other id, another workspace's included. */
export async function findEval(em: EntityManager, workspaceId: string, id: string): Promise<Eval> {
  const found = await em.findOne(Eval, { id, workspaceId });
  if (!found) throw errors.notFound('Eval');
  return found;
}

/** An eval run of the workspace. Throws `not_found` for any other id, another workspace's included. */
export async function findEvalRun(em: EntityManager, workspaceId: string, id: string): Promise<EvalRun> {
  const found = await em.findOne(EvalRun, { id, workspaceId });
  if (!found) throw errors.notFound('Eval run');
  return found;
}
