import { ApplicationFailure, proxyActivities } from '@temporalio/workflow';
import { PHONE_CALL, UNTIL_DONE } from './retryPolicies';

/** The activities of an outbound call (activities/phone.ts). */
export interface PhoneActivities {
  /** One attempt at the provider's REST API; throws to be retried. */
  placePhoneCall(callId: string): Promise<void>;
  /** Marks the call `failed` with the reason of the last attempt. */
  failPhoneCall(callId: string, reason: string): Promise<void>;
}

export const phoneCallWorkflowId = (callId: string) => `phone-call-${callId}`;

/**
 * Places an outbound call (docs/api/phone.md#outbound-calls): up to 5 attempts at the provider's REST
 * API, 1 s doubling to 8 s apart, so a provider answering 5xx for a moment still places the call; a
 * refusal (4xx) is not retried. When every attempt failed, the call is `failed`.
 */
export async function phoneCallWorkflow({ callId }: { callId: string }): Promise<'placed' | 'failed'> {
  const { placePhoneCall } = proxyActivities<PhoneActivities>({
    startToCloseTimeout: '30 seconds',
    retry: PHONE_CALL,
  });
  // our own bookkeeping: retried until the database answers
  const { failPhoneCall } = proxyActivities<PhoneActivities>({
    startToCloseTimeout: '30 seconds',
    retry: UNTIL_DONE,
  });
  try {
    await placePhoneCall(callId);
    return 'placed';
  } catch (err) {
    const cause = (err as { cause?: unknown }).cause;
    const reason = cause instanceof ApplicationFailure || cause instanceof Error ? cause.message : String(err);
    await failPhoneCall(callId, reason);
    return 'failed';
  }
}
