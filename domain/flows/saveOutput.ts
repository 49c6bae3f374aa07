import type { EntityManager } from '@mikro-orm/postgresql';
import { FlowFailure, type FlowStep } from '../../workflows/flowMessages';
import { ApiError } from '../errors';
import { recordOutputDelivery } from '../outputs/delivery';
import { markFlowStep, renderStep, updateFlowRun } from './execution';
import { FlowStepError } from './stepError';
import { resolvePath } from './templates';

/**
 * A save_output step records what `from` names (`trigger…` or `steps.<name>.output…`) as one delivery to
 * its output connection (docs/api/output-connections.md), keyed by this flow run and step, so a retried
 * activity records it once. Returns the delivery's id (null when the flow run is gone). A connection
 * deleted since the flow was saved fails the step with `flow.save_output_failed`.
 */
export async function recordSaveOutput(em: EntityManager, id: string, index: number): Promise<string | null> {
  const prepared = await updateFlowRun(em, id, (run) => {
    const step = run.definition[index] as Extract<FlowStep, { type: 'save_output' }>;
    return { run, step, output: renderStep(run, (scope) => resolvePath(step.from, scope)) };
  });
  if (!prepared) return null;
  const { run, step, output } = prepared;
  try {
    return await recordOutputDelivery(em.fork(), run.workspaceId, step.connectionId, output, {
      flowRunId: run.id,
      key: `flow-run:${run.id}:${index}`,
    });
  } catch (err) {
    if (err instanceof ApiError && err.code === 'not_found') {
      throw new FlowStepError(FlowFailure.saveOutputFailed, `The output connection ${step.connectionId} is gone`);
    }
    throw err;
  }
}

/** The delivery's outcome is the step's output; a delivery that failed all its attempts fails the step. */
export async function finishSaveOutput(
  em: EntityManager,
  id: string,
  index: number,
  deliveryId: string,
  status: 'succeeded' | 'failed',
): Promise<void> {
  await markFlowStep(em, id, index, {
    status: status === 'succeeded' ? 'succeeded' : 'running',
    output: { deliveryId, status },
  });
  if (status !== 'succeeded') {
    throw new FlowStepError(FlowFailure.saveOutputFailed, `The output delivery ${deliveryId} failed all its attempts`);
  }
}
