import type { EntityManager } from '@mikro-orm/postgresql';
import { Run } from '../../db/entities/Run';
import type { Resolver } from '../../platform/net/publicAddress';
import { NotPublicAddressError } from '../../platform/net/publicAddress';
import { safeRequest } from '../../platform/net/safeHttp';
import { FlowFailure, type AgentStepRun, type FlowStep } from '../../workflows/flowMessages';
import { ApiError } from '../errors';
import type { ModelRegistry } from '../models/registry';
import { createChildRun } from '../runs/childRun';
import { markFlowStep, renderStep, updateFlowRun } from './execution';
import { FlowStepError } from './stepError';
import { openHeaders } from './headerSecrets';
import type { SecretBox } from '../../platform/secrets';
import { render, renderText } from './templates';
import { onBehalfOfRow, type GateConfig } from '../runs/runGate';

/** Characters of an HTTP step's response body kept as its output. */
const MAX_BODY_CHARS = 8 * 1024;

export interface HttpStepDeps {
  /** Opens the step's sealed header values (domain/flows/headerSecrets.ts). */
  box: SecretBox;
  allowPrivate: boolean;
  resolver?: Resolver;
  timeoutMs?: number;
}

/**
 * An http step: the request is rendered, sent through the public-address guard (platform/net; private
 * addresses only with `SVC_ALLOW_PRIVATE_EGRESS=1`), redirects never followed, and its status and
 * body (cut at 8 KiB) become the step's output. A non-2xx answer, a refused address or a bad reference
 * fails the step; a connection error throws plainly, for the activity to retry.
 */
export async function httpStep(
  em: EntityManager,
  deps: HttpStepDeps,
  id: string,
  index: number,
  signal?: AbortSignal,
): Promise<void> {
  const prepared = await updateFlowRun(em, id, (run) => {
    const step = run.definition[index] as Extract<FlowStep, { type: 'http' }>;
    return renderStep(run, (scope) => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(openHeaders(deps.box, run.flowId, step))) {
        headers[k.toLowerCase()] = renderText(v, scope);
      }
      let body: string | undefined;
      if (step.body !== undefined && step.method !== 'GET') {
        const rendered = render(step.body, scope);
        body = typeof rendered === 'string' ? rendered : JSON.stringify(rendered);
        headers['content-type'] ??= typeof rendered === 'string' ? 'text/plain; charset=utf-8' : 'application/json';
      }
      return { method: step.method, url: renderText(step.url, scope), headers, body };
    });
  });
  if (!prepared) return;
  let res;
  try {
    res = await safeRequest(prepared.url, {
      method: prepared.method,
      headers: prepared.headers,
      body: prepared.body,
      timeoutMs: deps.timeoutMs ?? 15_000,
      allowPrivate: deps.allowPrivate,
      resolver: deps.resolver,
      signal,
    });
  } catch (err) {
    if (err instanceof NotPublicAddressError || err instanceof TypeError) {
      throw new FlowStepError(FlowFailure.httpError, err.message);
    }
    throw err;
  }
  const text = res.body.toString('utf8');
  const output = {
    status: res.status,
    body: text.slice(0, MAX_BODY_CHARS),
    truncated: res.truncated || text.length > MAX_BODY_CHARS,
  };
  const ok = res.status >= 200 && res.status < 300;
  await markFlowStep(em, id, index, { status: ok ? 'succeeded' : 'running', output });
  if (!ok) throw new FlowStepError(FlowFailure.httpError, `${prepared.method} answered ${res.status}`);
}

/**
 * An agent step's run: its input rendered, created (charged, credits held) by the runs domain on behalf of
 * the flow run's principal (docs/api/billing.md#who-pays) with a key of this flow run and step, so a retried activity finds the run its first attempt made. The
 * workflow then starts it as its child `run-<id>`.
 */
export async function createAgentStepRun(
  em: EntityManager,
  models: ModelRegistry,
  config: GateConfig,
  id: string,
  index: number,
): Promise<AgentStepRun | null> {
  const prepared = await updateFlowRun(em, id, (run) => {
    const step = run.definition[index] as Extract<FlowStep, { type: 'agent' }>;
    const input = renderStep(run, (scope) => render(step.input ?? {}, scope));
    if (!input || typeof input !== 'object' || Array.isArray(input)) {
      throw new FlowStepError(FlowFailure.templateError, `The input of step "${step.name}" must render to an object`);
    }
    return { run, step, input: input as Record<string, unknown> };
  });
  if (!prepared) return null;
  const { run, step, input } = prepared;
  let child: Run;
  try {
    child = await createChildRun(em.fork(), models, config, {
      onBehalfOf: onBehalfOfRow(run.workspaceId, run, 'unrecorded'),
      agentId: step.agentId,
      input,
      metadata: { flowId: run.flowId, flowRunId: run.id, flowStep: step.name },
      key: `flow-run:${run.id}:${index}`,
    });
  } catch (err) {
    if (err instanceof ApiError) {
      const code = err.code === 'not_found' ? FlowFailure.agentMissing : err.code;
      throw new FlowStepError(code, err.message);
    }
    throw err;
  }
  await markFlowStep(em, id, index, { status: 'running', runId: child.id });
  return { runId: child.id, workspaceId: child.workspaceId, agentId: child.agentId };
}

/** After the child run ended: its output is the step's, or the step fails with the run's error. */
export async function finishAgentStep(em: EntityManager, id: string, index: number, runId: string): Promise<void> {
  const run = await em.fork().findOne(Run, runId);
  if (run?.status === 'succeeded') {
    await markFlowStep(em, id, index, { status: 'succeeded', output: run.output });
    return;
  }
  const why = run?.error ? `${run.error.code}: ${run.error.message}` : (run?.status ?? 'missing');
  throw new FlowStepError(
    FlowFailure.agentRunFailed,
    `The agent run ${runId} ended ${run?.status ?? 'missing'} (${why})`,
  );
}
