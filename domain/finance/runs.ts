import type { EntityManager } from '@mikro-orm/postgresql';
import { Agent } from '../../db/entities/Agent';
import { FinanceRun } from '../../db/entities/FinanceRun';
import { Workspace } from '../../db/entities/Workspace';
import { createAgent, updateAgent, type AgentDeps } from '../agents/agents';
import { currentVersion, findAgent } from '../agents/find';
import { canonicalJson } from '../audit/chain';
import { requireScope } from '../identity/credentials';
import { errors } from '../errors';
import { findWorkspaceFiles } from '../files/files';
import type { Identity } from '../identity/identity';
import { createRun, type CreateRunDeps } from '../runs/create';
import { serializeRun, type RunView } from '../runs/presenters';
import type { ApprovalPolicy } from '../../workflows/approvalPolicy';
import { FINANCE_APPLY_MATCHES, FINANCE_RECONCILE, FINANCE_REPORT } from './tools';

export const FINANCE_PRESET = 'finance-agent';

/**
 * What the finance agent does, as its script (the deterministic `builtin/scripted` model): a reconciliation
 * proposes matches, hands them to the apply tool (which waits at the run's approval gate), and ends with
 * what was reconciled; a report builds the report and ends with it.
 */
const SCRIPTS = {
  reconciliation: [
    { tool: FINANCE_RECONCILE, args: {} },
    { tool: FINANCE_APPLY_MATCHES, argsFromLastResult: true },
    { finalToolResult: true },
  ],
  report: [{ tool: FINANCE_REPORT, args: {} }, { finalToolResult: true }],
};

/** The workspace's finance agent (preset `finance-agent`), made on first use. */
async function financeAgent(em: EntityManager, deps: AgentDeps, identity: Identity): Promise<string> {
  const existing = await em.findOne(
    Agent,
    { workspace: identity.workspaceId, presetId: FINANCE_PRESET, deletedAt: null },
    { orderBy: { createdAt: 'asc', id: 'asc' } },
  );
  if (existing) return existing.id;
  return (await createAgent(em, deps, identity, { name: 'Finance agent', presetId: FINANCE_PRESET })).id;
}

/**
 * Gives the finance agent `policy` as its `settings.approvalPolicy` (null removes it), a new version when it
 * differs from the current one (docs/api/finance.md#approval-policy). Changing who must approve is changing
 * the agent, so it takes `agents:write` besides `finance:write`; repeating the current policy takes nothing.
 * @throws `forbidden` when the policy would change and the caller may not write agents
 */
async function setApprovalPolicy(
  em: EntityManager,
  deps: AgentDeps,
  identity: Identity,
  agentId: string,
  policy: ApprovalPolicy | null,
): Promise<void> {
  const version = await currentVersion(em, await findAgent(em, identity.workspaceId, agentId));
  if (canonicalJson(version.settings.approvalPolicy ?? null) === canonicalJson(policy)) return;
  requireScope(identity, 'agents:write');
  await updateAgent(em, deps, identity, agentId, { settings: { approvalPolicy: policy } });
}

async function startFinanceRun(
  deps: CreateRunDeps & AgentDeps,
  em: EntityManager,
  identity: Identity,
  kind: 'reconciliation' | 'report',
  params: Record<string, unknown>,
  policy?: ApprovalPolicy | null,
): Promise<RunView> {
  const agentId = await financeAgent(em, deps, identity);
  if (policy !== undefined) await setApprovalPolicy(em, deps, identity, agentId, policy);
  const input = { finance: kind, ...params, script: SCRIPTS[kind] };
  const { run } = await createRun(deps, em, identity, { agentId, input, metadata: { finance: kind } }, null, {
    withRun: (tx, r) => {
      tx.persist(new FinanceRun(tx.getReference(Workspace, identity.workspaceId), r.id, kind, params));
    },
  });
  return serializeRun(run);
}

/**
 * Starts a reconciliation run over the transactions dated `from`..`to` and the documents `fileIds`
 * (docs/api/finance.md). Its matches are applied only once approved under the finance agent's approval
 * policy, which `approvalPolicy` sets first when given. @throws `validation_error` for `from` after `to` or
 * a file not in the workspace; `forbidden` for a policy change without `agents:write`
 */
export async function startReconciliation(
  deps: CreateRunDeps & AgentDeps,
  em: EntityManager,
  identity: Identity,
  body: { from: string; to: string; fileIds: string[]; approvalPolicy?: ApprovalPolicy | null },
): Promise<RunView> {
  if (body.from > body.to) throw errors.validation([{ path: 'from', message: 'from is after to' }]);
  const found = new Set(await findWorkspaceFiles(em, identity.workspaceId, body.fileIds));
  const missing = body.fileIds.flatMap((id, i) =>
    found.has(id) ? [] : [{ path: `fileIds.${i}`, message: 'No such file in this workspace' }],
  );
  if (missing.length) throw errors.validation(missing);
  const params = { from: body.from, to: body.to, fileIds: body.fileIds };
  return startFinanceRun(deps, em, identity, 'reconciliation', params, body.approvalPolicy);
}

/** Starts a report run (`monthly` or `cashflow`) over `from`..`to`. @throws `validation_error` for `from` after `to` */
export async function startReport(
  deps: CreateRunDeps & AgentDeps,
  em: EntityManager,
  identity: Identity,
  body: { from: string; to: string; kind: 'monthly' | 'cashflow' },
): Promise<RunView> {
  if (body.from > body.to) throw errors.validation([{ path: 'from', message: 'from is after to' }]);
  return startFinanceRun(deps, em, identity, 'report', { from: body.from, to: body.to, kind: body.kind });
}
