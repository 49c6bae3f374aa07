import type { EntityManager } from '@mikro-orm/postgresql';
import { Agent } from '../../db/entities/Agent';
import { OutputConnection } from '../../db/entities/OutputConnection';
import type { FlowStep, FlowTrigger } from '../../workflows/flowMessages';
import { errors, type ValidationIssue } from '../errors';
import { cronProblem, validTimezone } from './cron';
import { collectReferences, parsePath, TemplateError } from './templates';

/**
 * The checks of a flow definition that its schema cannot state (docs/api/flows.md#validation), all at
 * once: unique step names; every template reference well formed and naming an earlier step; a
 * condition's `else` is `stop` or a later step (so a flow never loops); every agent an agent of the
 * workspace; a schedule's cron and time zone valid; every save_output's connection a live output connection of the
 * workspace. Throws 400 `validation_error` with the path of
 * each problem.
 */
export async function checkDefinition(
  em: EntityManager,
  workspaceId: string,
  def: { trigger: FlowTrigger; steps: FlowStep[] },
): Promise<void> {
  const issues: ValidationIssue[] = [...triggerIssues(def.trigger)];
  const seen = new Map<string, number>();
  def.steps.forEach((step, i) => {
    if (seen.has(step.name)) issues.push({ path: `steps.${i}.name`, message: `Duplicate step name "${step.name}"` });
    else seen.set(step.name, i);
  });
  const indexOf = (name: string) => def.steps.findIndex((s) => s.name === name);
  def.steps.forEach((step, i) => {
    for (const { path, ref } of stepReferences(step, i)) {
      try {
        parsePath(ref);
        const named = ref.split('.');
        if (named[0] === 'steps') {
          const at = indexOf(named[1]);
          if (at < 0) issues.push({ path, message: `Unknown step "${named[1]}"` });
          else if (at >= i) issues.push({ path, message: `Step "${named[1]}" does not run before this one` });
        }
      } catch (err) {
        if (!(err instanceof TemplateError)) throw err;
        issues.push({ path, message: err.message });
      }
    }
    if (step.type === 'condition' && step.else !== 'stop') {
      const at = indexOf(step.else);
      if (at < 0) issues.push({ path: `steps.${i}.else`, message: `Unknown step "${step.else}"` });
      else if (at <= i) issues.push({ path: `steps.${i}.else`, message: `"else" must name a later step or "stop"` });
    }
  });
  const agentSteps = def.steps.map((s, i) => ({ s, i })).filter(({ s }) => s.type === 'agent');
  if (agentSteps.length) {
    const ids = [...new Set(agentSteps.map(({ s }) => (s as { agentId: string }).agentId))];
    const found = new Set(
      (await em.find(Agent, { id: { $in: ids }, workspace: workspaceId, deletedAt: null }, { fields: ['id'] })).map(
        (a) => a.id,
      ),
    );
    for (const { s, i } of agentSteps) {
      const agentId = (s as { agentId: string }).agentId;
      if (!found.has(agentId)) issues.push({ path: `steps.${i}.agentId`, message: `Unknown agent ${agentId}` });
    }
  }
  const saveSteps = def.steps.map((s, i) => ({ s, i })).filter(({ s }) => s.type === 'save_output');
  if (saveSteps.length) {
    const ids = [...new Set(saveSteps.map(({ s }) => (s as { connectionId: string }).connectionId))];
    const live = new Set(
      (await em.find(OutputConnection, { id: { $in: ids }, workspaceId, deletedAt: null }, { fields: ['id'] })).map(
        (c) => c.id,
      ),
    );
    for (const { s, i } of saveSteps) {
      const connectionId = (s as { connectionId: string }).connectionId;
      if (!live.has(connectionId)) {
        issues.push({ path: `steps.${i}.connectionId`, message: `Unknown output connection ${connectionId}` });
      }
    }
  }
  if (issues.length) throw errors.validation(issues);
}

function triggerIssues(trigger: FlowTrigger): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (trigger.type === 'schedule') {
    if (trigger.cron === undefined) issues.push({ path: 'trigger.cron', message: 'A schedule trigger needs a cron' });
    else {
      const problem = cronProblem(trigger.cron);
      if (problem) issues.push({ path: 'trigger.cron', message: problem });
    }
    if (trigger.timezone !== undefined && !validTimezone(trigger.timezone)) {
      issues.push({ path: 'trigger.timezone', message: `Unknown time zone ${trigger.timezone}` });
    }
  } else {
    if (trigger.cron !== undefined)
      issues.push({ path: 'trigger.cron', message: 'Only a schedule trigger has a cron' });
    if (trigger.timezone !== undefined) {
      issues.push({ path: 'trigger.timezone', message: 'Only a schedule trigger has a time zone' });
    }
  }
  return issues;
}

/** The references of one step: placeholders in its strings, and the bare paths of conditions and save_output. */
function stepReferences(step: FlowStep, i: number): Array<{ path: string; ref: string }> {
  const at = `steps.${i}`;
  switch (step.type) {
    case 'agent':
      return collectReferences(step.input, `${at}.input`);
    case 'http':
      return [
        ...collectReferences(step.url, `${at}.url`),
        ...collectReferences(step.headers ?? {}, `${at}.headers`),
        ...collectReferences(step.body ?? null, `${at}.body`),
      ];
    case 'approval':
      return collectReferences(step.message, `${at}.message`);
    case 'condition':
      return [
        { path: `${at}.if.path`, ref: step.if.path },
        ...collectReferences(step.if.value ?? null, `${at}.if.value`),
      ];
    case 'save_output':
      return [{ path: `${at}.from`, ref: step.from }];
    case 'delay':
      return [];
  }
}
