import { ApplicationFailure } from '@temporalio/activity';
import type { Orm } from '../db/orm';
import type { PhoneDeps } from '../domain/phone/deps';
import { attemptPlacement, failPlacement } from '../domain/phone/outbound';
import type { PhoneActivities } from '../workflows/phoneCall';

/** ApplicationFailure types of the phone activities. */
export const PhoneFailure = {
  /** The provider did not take this attempt (5xx, 429, unreachable); the retry policy makes the next. */
  attemptFailed: 'phone.attempt_failed',
  /** The provider refused the call (4xx), or the number is gone: no further attempt. */
  refused: 'phone.call_refused',
} as const;

/** The outbound-call activities (docs/api/phone.md#outbound-calls). */
export function createPhoneActivities(deps: { orm: Orm } & PhoneDeps): PhoneActivities {
  return {
    async placePhoneCall(callId) {
      const result = await attemptPlacement(deps.orm.em.fork(), deps, callId);
      if (result.outcome === 'retry') {
        throw ApplicationFailure.create({ type: PhoneFailure.attemptFailed, message: result.error });
      }
      if (result.outcome === 'refused') {
        throw ApplicationFailure.create({ type: PhoneFailure.refused, message: result.error, nonRetryable: true });
      }
    },
    async failPhoneCall(callId, reason) {
      await failPlacement(deps.orm.em.fork(), callId, reason);
    },
  };
}
