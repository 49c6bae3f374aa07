import { Context } from '@temporalio/activity';
import type { RunActivities, TransitionPatch, TurnDecision } from '../../workflows/activityTypes';
import type { AgentSettings } from '../../workflows/agentTurn';
import type { RunStatus } from '../../workflows/messages';

/**
 * Stand-ins for the run activities, for the run workflow's own logic: the model's turns are scripted, the
 * read model is a list of the statuses written. `reached(status)` resolves once the workflow has written
 * that status, so a test acts on what the run shows, never after a guessed delay.
 */
export function stubRun(settings: Partial<AgentSettings>, turns: Array<TurnDecision | 'blocks'>) {
  const statuses: RunStatus[] = [];
  const steps: Array<{ type: string; status: string }> = [];
  const waiting = new Map<RunStatus, Array<() => void>>();
  let begun = false;
  let turn = 0;
  let turnStarted!: () => void;
  const blockingTurn = new Promise<void>((resolve) => (turnStarted = resolve));
  const written = (status: RunStatus) => {
    statuses.push(status);
    for (const resolve of waiting.get(status) ?? []) resolve();
    waiting.delete(status);
  };
  const activities: RunActivities = {
    async beginRun() {
      begun = true;
      // the real beginRun writes `running` itself
      written('running');
      return { settings: { approval: 'never', review: false, maxSteps: 10, ...settings } };
    },
    async transition(_runId: string, patch: TransitionPatch) {
      written(patch.status);
      return null;
    },
    async recordStep(_runId, _index, type, status) {
      steps.push({ type, status });
    },
    async nextTurn() {
      const next = turns[turn++] ?? { kind: 'fail', message: 'the script has no more turns' };
      if (next !== 'blocks') return next;
      // A model call that never answers: it heartbeats, so the run's cancel reaches it.
      const ctx = Context.current();
      turnStarted();
      for (;;) {
        ctx.heartbeat();
        await ctx.sleep(200);
      }
    },
    async useTool() {},
    async recordAnswer() {},
    // approval policies are not what these tests are about: a gate without one never calls these
    async showApproval() {},
    async notifyApprovers() {},
    async finishRun(_runId: string, patch: TransitionPatch) {
      written(patch.status);
      return null;
    },
  };
  return {
    activities,
    statuses,
    steps,
    begun: () => begun,
    /** Resolves once a turn scripted as `blocks` is in flight. */
    blockingTurn,
    reached(status: RunStatus): Promise<void> {
      if (statuses.includes(status)) return Promise.resolve();
      return new Promise((resolve) => waiting.set(status, [...(waiting.get(status) ?? []), resolve]));
    },
  };
}
