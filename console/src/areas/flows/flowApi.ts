import { useQuery } from '@tanstack/react-query';
import { FLOW_RUN_TERMINAL_STATUSES, type Flow, type FlowRun, type FlowStep, type FlowTemplate } from '@svc/client';
import { api, ApiError } from '../../api';

export type { Flow, FlowRun, FlowStep, FlowTemplate };
export type StepType = FlowStep['type'];

/** The step types in the order the editor offers them, with a line each saying what it does. */
export const STEP_TYPES: { type: StepType; label: string; help: string }[] = [
  { type: 'agent', label: 'Agent run', help: 'A real run of an agent; the flow waits for it, gates and all.' },
  { type: 'http', label: 'HTTP request', help: 'One request to a public address; a non-2xx answer fails the step.' },
  { type: 'approval', label: 'Approval', help: 'Waits until a person approves or rejects in the inbox.' },
  { type: 'condition', label: 'Condition', help: 'Goes on when true; otherwise stops or jumps to a later step.' },
  { type: 'delay', label: 'Delay', help: 'Waits a number of seconds (a durable timer).' },
  { type: 'save_output', label: 'Save output', help: 'Sends a value to an output connection.' },
];

export const isFlowRunDone = (run: FlowRun) => (FLOW_RUN_TERMINAL_STATUSES as readonly string[]).includes(run.status);

export function useFlow(id: string) {
  return useQuery({ queryKey: ['flow', id], queryFn: () => api<Flow>(`/v1/flows/${id}`) });
}

export function useFlowRuns(flowId: string, poll: number | false) {
  return useQuery({
    queryKey: ['flow-runs', flowId],
    queryFn: () => api<{ flowRuns: FlowRun[]; nextCursor: string | null }>(`/v1/flows/${flowId}/runs?limit=50`),
    refetchInterval: poll,
  });
}

/** A problem the service found at a path of the body (`steps.2.agentId`, `trigger.cron`). */
export interface Issue {
  path: string;
  message: string;
}

/**
 * The issues of a 400 `validation_error`, each at its path. A body that fits neither a definition nor a
 * template is one issue at the body whose message lists `path: message` pairs separated by `; `
 * (api/schemas/flows.ts), so those are split back into their paths.
 */
export function issuesOf(err: unknown): Issue[] {
  if (!(err instanceof ApiError) || err.code !== 'validation_error') return [];
  const raw = (err.details?.issues as Issue[] | undefined) ?? [];
  return raw.flatMap((i) => {
    if (i.path) return [i];
    return i.message.split('; ').map((part) => {
      const at = part.indexOf(': ');
      return at > 0 ? { path: part.slice(0, at), message: part.slice(at + 2) } : { path: '', message: part };
    });
  });
}

/** The issues under `prefix` (`steps.1`), with the rest of the path (`agentId`, `input.text`, or ''). */
export function issuesAt(issues: Issue[], prefix: string): Issue[] {
  return issues
    .filter((i) => i.path === prefix || i.path.startsWith(`${prefix}.`))
    .map((i) => ({ path: i.path.slice(prefix.length + 1), message: i.message }));
}

/**
 * The references a step may use (docs/api/flows.md#templates), without braces: the trigger's data and the
 * output of each step before it.
 */
export function referencesBefore(stepNames: string[], index: number): string[] {
  return [
    'trigger',
    ...stepNames
      .slice(0, index)
      .filter(Boolean)
      .map((n) => `steps.${n}.output`),
  ];
}
