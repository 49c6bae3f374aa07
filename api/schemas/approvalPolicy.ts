import { z } from 'zod';
import { APPROVER_ROLES, durationMs } from '../../workflows/approvalPolicy';

/**
 * The one schema of an approval policy (docs/api/runs.md#approval-policies), shared by an agent version's
 * `settings.approvalPolicy`, a flow's `approval` step and a finance reconciliation's approval.
 */

const duration = z
  .string()
  .max(40)
  .refine(
    (v) => (durationMs(v) ?? 0) >= 1000,
    'An ISO-8601 duration of weeks, days, hours, minutes and seconds, at least PT1S',
  )
  .meta({ description: 'ISO-8601 duration, e.g. `PT30M`, `P2D`', example: 'PT4H' });

const roles = z.array(z.enum(APPROVER_ROLES)).min(1).max(3);
const userIds = z.array(z.uuid()).min(1).max(50);
// Roles, users or both, but not neither: a union, so that the OpenAPI document says it too (a refinement
// would be invisible to a client and to schema fuzzing).
const approvers = z.union(
  [z.strictObject({ roles, userIds: userIds.optional() }), z.strictObject({ roles: roles.optional(), userIds })],
  { error: 'Name at least one role or user' },
);

export const approvalPolicySchema = z
  .strictObject({
    approvers,
    required: z.number().int().min(1).max(5),
    forbidSelfApproval: z.boolean().default(true),
    allowKeys: z.boolean().default(false),
    expiresAfter: duration.optional(),
    onExpiry: z.enum(['reject', 'fail', 'escalate']).optional(),
    escalateTo: approvers.optional(),
    remindAfter: duration.optional(),
  })
  .refine((p) => p.onExpiry === undefined || p.expiresAfter !== undefined, {
    message: 'onExpiry needs expiresAfter',
    path: ['onExpiry'],
  })
  .refine((p) => (p.onExpiry === 'escalate') === (p.escalateTo !== undefined), {
    message: 'escalateTo goes with onExpiry: escalate, and only with it',
    path: ['escalateTo'],
  });

/** The policy as read back: defaults filled in. */
export const approvalPolicyOut = z.object({
  approvers: z.object({ roles: z.array(z.enum(APPROVER_ROLES)).optional(), userIds: z.array(z.uuid()).optional() }),
  required: z.number().int(),
  forbidSelfApproval: z.boolean(),
  allowKeys: z.boolean(),
  expiresAfter: z.string().optional(),
  onExpiry: z.enum(['reject', 'fail', 'escalate']).optional(),
  escalateTo: z
    .object({ roles: z.array(z.enum(APPROVER_ROLES)).optional(), userIds: z.array(z.uuid()).optional() })
    .optional(),
  remindAfter: z.string().optional(),
});

/** What a gate under a policy shows while it waits: a run's pending approval and a flow run's alike. */
export const policyProgressFields = {
  policy: approvalPolicyOut.optional(),
  approvals: z
    .array(
      z.object({
        userId: z.uuid().nullable(),
        keyId: z.uuid().nullable(),
        at: z.iso.datetime(),
        comment: z.string().nullable(),
      }),
    )
    .optional(),
  remaining: z.number().int().optional(),
  expiresAt: z.iso.datetime().nullable().optional(),
  escalated: z.boolean().optional(),
};
