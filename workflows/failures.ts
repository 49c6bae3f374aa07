/**
 * Error codes a run can end with (docs/api/errors.md#codes-a-run-ends-with): one table for the workflow
 * and the activities, so every `ApplicationFailure` type comes from these constants.
 */
export const RunFailure = {
  /** The model said the run fails (`{ "fail": … }` in a script), or the model call failed for good. */
  modelError: 'agent.model_error',
  /** A tool call failed for good. */
  toolError: 'agent.tool_error',
  /** The model called a tool its agent version does not list (`ask_user` is always allowed). */
  toolNotAllowed: 'agent.tool_not_allowed',
  /** `approve` with `approved: false`. */
  rejected: 'run.rejected',
  /** An approval gate whose policy says `onExpiry: fail` expired without a decision. */
  approvalExpired: 'run.approval_expired',
  /** `review` with `accept: false` and no corrected output. */
  reviewRejected: 'run.review_rejected',
  /** The run's hold plus the available balance cannot cover its next model turn (docs/api/billing.md#holds). */
  insufficientCredits: 'billing.insufficient_credits',
  /** The agent used up `settings.maxSteps`. */
  maxSteps: 'agent.max_steps_exceeded',
  /** The agent or its version vanished. */
  agentMissing: 'agent.not_found',
  /** Anything else that ended the run (an activity out of retries, a bug). */
  internal: 'run.internal_error',
} as const;
export type RunFailureCode = (typeof RunFailure)[keyof typeof RunFailure];
