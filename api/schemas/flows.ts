import { z } from 'zod';
import { pageQuery } from '../../domain/shared/pagination';
import { FLOW_RUN_STATUSES } from '../../workflows/flowMessages';
import { approvalPolicySchema, policyProgressFields } from './approvalPolicy';
import { uuid } from './common';
import { text, trimmedText, urlOut, urlText } from './text';

const object = z.record(z.string(), z.unknown());
// A step name is what `{{steps.<name>…}}` names: one path segment, never a prototype's property.
const stepName = z
  .string()
  .regex(/^(?!(?:__proto__|constructor|prototype)$)[A-Za-z0-9_-]{1,64}$/, 'Letters, digits, _ and -, 1 to 64');
const headerName = z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/, 'A header name');
const headerValue = z.string().regex(/^[^\r\n]{0,8192}$/, 'At most 8192 characters, no line breaks');
const path = text(1, 500);

const agentStep = z.strictObject({
  name: stepName,
  type: z.literal('agent'),
  agentId: uuid,
  input: object.default({}),
});
const httpStep = z.strictObject({
  name: stepName,
  type: z.literal('http'),
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
  url: urlText(2048),
  headers: z.record(headerName, headerValue).optional(),
  body: z.unknown().optional(),
});
const approvalStep = z.strictObject({
  name: stepName,
  type: z.literal('approval'),
  message: text(1, 10_000),
  // who may answer, how many must, and what happens when nobody does (docs/api/flows.md#approval-policies)
  approvalPolicy: approvalPolicySchema.optional(),
});
const conditionStep = z.strictObject({
  name: stepName,
  type: z.literal('condition'),
  if: z.strictObject({
    path,
    op: z.enum(['eq', 'ne', 'gt', 'lt', 'exists', 'contains']),
    value: z.unknown().optional(),
  }),
  else: z.union([z.literal('stop'), stepName]),
});
// At most 30 days: a durable timer, but a flow run should not outlive what anyone remembers of it.
const delayStep = z.strictObject({
  name: stepName,
  type: z.literal('delay'),
  seconds: z
    .number()
    .int()
    .min(1)
    .max(30 * 24 * 3600),
});
const saveOutputStep = z.strictObject({
  name: stepName,
  type: z.literal('save_output'),
  connectionId: uuid,
  from: path,
});

export const flowStep = z.discriminatedUnion('type', [
  agentStep,
  httpStep,
  approvalStep,
  conditionStep,
  delayStep,
  saveOutputStep,
]);
const steps = z.array(flowStep).min(1).max(50);

export const flowTrigger = z.strictObject({
  type: z.enum(['manual', 'webhook', 'schedule']),
  cron: text(1, 200).optional(),
  timezone: text(1, 64).optional(),
});

const name = trimmedText(200);
const description = text(0, 10_000).nullable();
const status = z.enum(['active', 'paused']);

const definitionBody = z.strictObject({
  name,
  description: description.optional(),
  projectId: uuid.nullable().optional(),
  status: status.optional(),
  trigger: flowTrigger,
  steps,
});
const templateBody = z.strictObject({
  templateId: text(1, 100),
  name,
  agentId: uuid.optional(),
  description: description.optional(),
  projectId: uuid.nullable().optional(),
});

/** A definition, or a template's (`templateId`): the branch the body means names its problems. */
export const createFlowBody = z.union([definitionBody, templateBody], {
  error: (issue) => {
    const input = issue.input;
    const branch = input && typeof input === 'object' && 'templateId' in input ? 1 : 0;
    const found = (issue as { errors?: Array<Array<{ path: PropertyKey[]; message: string }>> }).errors?.[branch];
    if (!found?.length) return 'Expected a flow definition or { templateId, name }';
    return found.map((e) => `${e.path.map(String).join('.') || '(body)'}: ${e.message}`).join('; ');
  },
});

export const updateFlowBody = z
  .strictObject({
    name: name.optional(),
    description: description.optional(),
    projectId: uuid.nullable().optional(),
    status: status.optional(),
    trigger: flowTrigger.optional(),
    steps: steps.optional(),
  })
  .refine((b) => Object.keys(b).length > 0, 'Nothing to update')
  .meta({ minProperties: 1 });

export const listFlowsQuery = pageQuery.extend({ projectId: uuid.optional() });

export const listFlowRunsQuery = pageQuery.extend({ status: z.enum(FLOW_RUN_STATUSES).optional() });

export const runFlowBody = z.strictObject({ input: object.default({}) }).optional();

export const approvalBody = z.strictObject({ approved: z.boolean(), comment: text(0, 10_000).optional() });

export const hookParams = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{1,200}$/) });
export const hookBody = z.unknown();

const flowStepOut = z.object({ name: z.string(), type: z.string() }).catchall(z.unknown());

export const flowOut = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  projectId: z.uuid().nullable(),
  status,
  trigger: z.object({
    type: z.enum(['manual', 'webhook', 'schedule']),
    cron: z.string().optional(),
    timezone: z.string().optional(),
  }),
  steps: z.array(flowStepOut),
  webhookUrl: urlOut.nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export const flowListOut = z.object({ flows: z.array(flowOut), nextCursor: z.string().nullable() });

export const flowTemplateOut = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  needsAgent: z.boolean(),
  trigger: flowOut.shape.trigger,
  steps: z.array(flowStepOut),
});
export const flowTemplateListOut = z.object({ templates: z.array(flowTemplateOut) });

const flowError = z.object({ code: z.string(), message: z.string() });
export const flowRunOut = z.object({
  id: z.uuid(),
  flowId: z.uuid(),
  status: z.enum(FLOW_RUN_STATUSES),
  trigger: z.object({ type: z.enum(['manual', 'webhook', 'schedule']), input: object }),
  steps: z.array(
    z.object({
      name: z.string(),
      type: z.string(),
      status: z.enum(['pending', 'running', 'waiting', 'succeeded', 'failed', 'skipped', 'cancelled']),
      output: z.unknown(),
      error: flowError.nullable(),
      runId: z.uuid().optional(),
    }),
  ),
  error: flowError.nullable(),
  pendingApproval: z
    .object({ id: z.string(), step: z.string(), message: z.string(), ...policyProgressFields })
    .nullable(),
  createdAt: z.iso.datetime(),
  completedAt: z.iso.datetime().nullable(),
});
export const flowRunListOut = z.object({ flowRuns: z.array(flowRunOut), nextCursor: z.string().nullable() });
export const webhookTokenOut = z.object({ webhookUrl: urlOut });
export const hookAcceptedOut = z.object({ flowRunId: z.uuid() });
