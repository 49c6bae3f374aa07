import type { ActivityOptions, RetryPolicy } from '@temporalio/common';

/**
 * Every retry policy the workflows give their activities, named once: a policy a document promises
 * (docs/api/webhooks.md, docs/api/output-connections.md) is changed here and nowhere else.
 */

/**
 * Our own bookkeeping (read-model writes, recording runs and deliveries): a database outage must fail
 * nothing, so no attempt limit; 0.5 s doubling to every 30 s.
 */
export const STORE_WRITES: RetryPolicy = {
  initialInterval: '500 ms',
  backoffCoefficient: 2,
  maximumInterval: '30 seconds',
};

/**
 * Bookkeeping that waits on something slower (a run to end, a judge's score, the recording of a delivery,
 * the failure of one): no attempt limit, 1 s doubling to every 30 s.
 */
export const UNTIL_DONE: RetryPolicy = {
  initialInterval: '1 second',
  backoffCoefficient: 2,
  maximumInterval: '30 seconds',
};

/**
 * A call to a peer that answers for itself: a webhook or saved-output delivery (3 attempts in total, 1 s then
 * 2 s apart: docs/api/webhooks.md), a model or tool call, a flow's http step.
 */
export const THREE_ATTEMPTS: RetryPolicy = { initialInterval: '1 second', backoffCoefficient: 2, maximumAttempts: 3 };

/**
 * An attempt of a signed delivery (a webhook event or a saved output, domain/deliveries/): 10 s each, 3 attempts
 * in all, 1 s then 2 s apart (docs/api/webhooks.md). Both kinds take this one setting.
 */
export const SIGNED_DELIVERY_ATTEMPTS = {
  startToCloseTimeout: '10 seconds',
  retry: THREE_ATTEMPTS,
} as const satisfies ActivityOptions;

/** Attempts 2 and 3 of a delivery whose attempt 1 the fan-out made: 2 s apart (the 1 s before is a timer). */
export const LAST_TWO_ATTEMPTS: RetryPolicy = {
  initialInterval: '2 seconds',
  backoffCoefficient: 2,
  maximumAttempts: 2,
};

/**
 * A workspace's delivery slot: a busy claim fails at once and is retried, 0.5 s then up to every 5 s, without an
 * attempt limit and without holding an activity slot or growing the history while it waits.
 */
export const SLOT_CLAIM: RetryPolicy = {
  initialInterval: '500 ms',
  backoffCoefficient: 2,
  maximumInterval: '5 seconds',
};

/** One try: a failure is handed on to another path at once. */
export const ONE_TRY: RetryPolicy = { maximumAttempts: 1 };

/** A reply through a channel's provider: 8 attempts over about four minutes, so a 5xx spell does not lose it. */
export const CHANNEL_REPLY: RetryPolicy = {
  initialInterval: '1 second',
  backoffCoefficient: 2,
  maximumInterval: '1 minute',
  maximumAttempts: 8,
};

/** An outbound phone call at the provider's REST API: 5 attempts, 1 s doubling to 8 s apart. */
export const PHONE_CALL: RetryPolicy = {
  initialInterval: '1 second',
  backoffCoefficient: 2,
  maximumInterval: '8 seconds',
  maximumAttempts: 5,
};

/** A saved table's refresh: a database hiccup is retried, 1 s doubling to 30 s, 5 attempts in all. */
export const TABLE_REFRESH: RetryPolicy = {
  initialInterval: '1 second',
  backoffCoefficient: 2,
  maximumInterval: '30 seconds',
  maximumAttempts: 5,
};
