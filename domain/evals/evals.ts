import type { EntityManager } from '@mikro-orm/postgresql';
import { Eval, type EvalCase } from '../../db/entities/Eval';
import { findAgent } from '../agents/find';
import { errors, type ValidationIssue } from '../errors';
import { findWorkspaceFiles } from '../files/files';
import type { Identity } from '../identity/identity';
import { findPage } from '../shared/pagination';
import { findEval } from './find';
import { presentEval, type EvalView } from './presenters';

/** At most this many cases per eval (docs/api/evals.md); the body schema says so too. */
export const MAX_EVAL_CASES = 100;

/**
 * Creates an eval of a live agent. Every `input.fileIds` entry of every case must name a file of the
 * workspace (400 at its path), as a run's would. Throws `not_found` for an unknown agent.
 */
export async function createEval(
  em: EntityManager,
  identity: Identity,
  agentId: string,
  input: { name: string; cases: EvalCase[] },
): Promise<EvalView> {
  const agent = await findAgent(em, identity.workspaceId, agentId);
  if (input.cases.length > MAX_EVAL_CASES) {
    throw errors.validation([{ path: 'cases', message: `At most ${MAX_EVAL_CASES} cases per eval` }]);
  }
  await checkCaseFiles(em, identity.workspaceId, input.cases);
  const created = new Eval(identity.workspaceId, agent.id, input.name, input.cases);
  await em.persist(created).flush();
  return presentEval(created);
}

async function checkCaseFiles(em: EntityManager, workspaceId: string, cases: EvalCase[]): Promise<void> {
  const named = cases.flatMap((c, i) => {
    const ids = Array.isArray(c.input.fileIds) ? (c.input.fileIds as unknown[]) : [];
    return ids.map((id, j) => ({ id: String(id), path: `cases.${i}.input.fileIds.${j}` }));
  });
  if (named.length === 0) return;
  const found = new Set(
    await findWorkspaceFiles(
      em,
      workspaceId,
      named.map((n) => n.id),
    ),
  );
  const issues: ValidationIssue[] = named
    .filter((n) => !found.has(n.id))
    .map((n) => ({ path: n.path, message: 'No such file in this workspace' }));
  if (issues.length) throw errors.validation(issues);
}

/** One page of an agent's evals, newest first. Throws `not_found` for an unknown agent. */
export async function listEvals(
  em: EntityManager,
  identity: Identity,
  agentId: string,
  page: { limit: number; cursor?: string },
): Promise<{ evals: EvalView[]; nextCursor: string | null }> {
  const agent = await findAgent(em, identity.workspaceId, agentId);
  const { items, nextCursor } = await findPage(em, Eval, { agentId: agent.id }, page);
  return { evals: items.map(presentEval), nextCursor };
}

/** An eval of the workspace. Throws `not_found`. */
export async function getEval(em: EntityManager, identity: Identity, id: string): Promise<EvalView> {
  return presentEval(await findEval(em, identity.workspaceId, id));
}

/**
 * Deletes an eval with its runs and results. The case runs stay (they were real, charged runs); an eval
 * run still in progress finds its eval gone and stops starting cases (domain/evals/execution.ts).
 */
export async function deleteEval(em: EntityManager, identity: Identity, id: string): Promise<void> {
  const found = await findEval(em, identity.workspaceId, id);
  await em.nativeDelete(Eval, { id: found.id });
}
