/**
 * The task queue of the delivery activities, beside the runs' own: deliveries get activity slots of their
 * own in the worker, so receivers that hang (10 s an attempt) can never take the slots runs need. Named
 * here, with no SDK import, because both sides need it: the run workflow schedules its own announcements'
 * deliveries there, and the worker and the API's starters name it.
 */
export const webhookTaskQueue = (runsTaskQueue: string) => `${runsTaskQueue}-webhooks`;
