import type { FlowStep, FlowTrigger } from '../../workflows/flowMessages';
import { errors } from '../errors';

/** The agent a template's agent steps use: `POST /v1/flows { templateId, name, agentId }` fills it in. */
export const TEMPLATE_AGENT = '{{agentId}}';

export interface FlowTemplate {
  id: string;
  name: string;
  description: string;
  /** Whether creating a flow from it needs `agentId`. */
  needsAgent: boolean;
  trigger: FlowTrigger;
  steps: FlowStep[];
}

/** The built-in flow templates (docs/api/flows.md#templates), served by `GET /v1/flow-templates`. */
export const FLOW_TEMPLATES: readonly FlowTemplate[] = [
  {
    id: 'webhook-triage',
    name: 'Triage an inbound webhook',
    description:
      'An agent triages the JSON a webhook receives, then the result is POSTed to the callbackUrl the caller sent.',
    needsAgent: true,
    trigger: { type: 'webhook' },
    steps: [
      { name: 'triage', type: 'agent', agentId: TEMPLATE_AGENT, input: { message: '{{trigger.message}}' } },
      {
        name: 'post_result',
        type: 'http',
        method: 'POST',
        url: '{{trigger.callbackUrl}}',
        body: { triage: '{{steps.triage.output}}' },
      },
    ],
  },
  {
    id: 'daily-report',
    name: 'Daily report',
    description: 'Every morning at 09:00 UTC an agent writes a report, which is POSTed to your endpoint.',
    needsAgent: true,
    trigger: { type: 'schedule', cron: '0 9 * * *', timezone: 'UTC' },
    steps: [
      { name: 'report', type: 'agent', agentId: TEMPLATE_AGENT, input: { task: 'Write the daily report' } },
      {
        name: 'deliver',
        type: 'http',
        method: 'POST',
        url: 'https://example.com/reports',
        body: { report: '{{steps.report.output}}' },
      },
    ],
  },
  {
    id: 'approval-gated-http',
    name: 'Approval-gated outbound call',
    description: 'A person approves before the request given at run time ({ url, body }) is sent.',
    needsAgent: false,
    trigger: { type: 'manual' },
    steps: [
      { name: 'approve', type: 'approval', message: 'Send a POST to {{trigger.url}}?' },
      { name: 'send', type: 'http', method: 'POST', url: '{{trigger.url}}', body: '{{trigger.body}}' },
    ],
  },
  {
    id: 'escalate-urgent',
    name: 'Escalate urgent requests',
    description:
      'An agent classifies an inbound request; only when its output says priority "high" does a person approve an alert to the callbackUrl.',
    needsAgent: true,
    trigger: { type: 'webhook' },
    steps: [
      { name: 'classify', type: 'agent', agentId: TEMPLATE_AGENT, input: { request: '{{trigger}}' } },
      {
        name: 'is_urgent',
        type: 'condition',
        if: { path: 'steps.classify.output.priority', op: 'eq', value: 'high' },
        else: 'stop',
      },
      { name: 'approve', type: 'approval', message: 'Alert for: {{steps.classify.output}}' },
      {
        name: 'alert',
        type: 'http',
        method: 'POST',
        url: '{{trigger.callbackUrl}}',
        body: '{{steps.classify.output}}',
      },
    ],
  },
  {
    id: 'delayed-follow-up',
    name: 'Delayed follow-up',
    description: 'Waits an hour after the trigger, then an agent drafts a follow-up for the contact given at run time.',
    needsAgent: true,
    trigger: { type: 'manual' },
    steps: [
      { name: 'wait', type: 'delay', seconds: 3600 },
      { name: 'follow_up', type: 'agent', agentId: TEMPLATE_AGENT, input: { contact: '{{trigger.contact}}' } },
    ],
  },
];

/**
 * The trigger and steps of a template, its agent steps given `agentId`. Throws 400 `validation_error`
 * for an unknown template (`templateId`) or a template that needs an agent and got none (`agentId`).
 */
export function instantiateTemplate(
  templateId: string,
  agentId: string | undefined,
): { template: FlowTemplate; trigger: FlowTrigger; steps: FlowStep[] } {
  const template = FLOW_TEMPLATES.find((t) => t.id === templateId);
  if (!template) throw errors.validation([{ path: 'templateId', message: `Unknown flow template ${templateId}` }]);
  if (template.needsAgent && !agentId) {
    throw errors.validation([{ path: 'agentId', message: `The template ${templateId} needs an agentId` }]);
  }
  const steps = structuredClone(template.steps).map((s) =>
    s.type === 'agent' && s.agentId === TEMPLATE_AGENT ? { ...s, agentId: agentId! } : s,
  );
  return { template, trigger: structuredClone(template.trigger), steps };
}
