import { patched } from '@temporalio/workflow';

/**
 * Marks the histories in which a cancel of the workflow (Temporal's own cancellation, what the API sends)
 * closes it as Canceled after it wrote `cancelled`; histories from before complete instead.
 */
const TEMPORAL_CANCELLATION = 'run-temporal-cancellation';

/**
 * Marks the histories in which the conversation lives in PostgreSQL: the workflow passes ids and
 * message indexes (`beginRun`, `nextTurn`, `useTool`, `recordAnswer`), so its history stays small however
 * long the run (docs/api/runs.md#how-a-run-executes-operators). Histories from before carry the input and
 * the conversation through `startRun`, `modelTurn` and `runTool`, and replay that way.
 */
const CONVERSATION_IN_DB = 'run-conversation-in-db';

/**
 * Marks the histories in which the read-model writes (`beginRun`, `transition`, `recordStep`,
 * `recordAnswer`, `finishRun`) are local activities; histories from before schedule them as activities.
 */
const STORE_LOCAL = 'run-store-local';

/** Marks the histories in which an in-process model's turns (`turnsInProcess`) are local activities. */
const IN_PROCESS_TURNS_LOCAL = 'run-in-process-turns-local';

/**
 * Marks the histories that take every path above, with one marker instead of four. Each `patched()` that
 * records a marker also makes the SDK upsert the `TemporalChangeVersion` search attribute, and Temporal
 * writes each upsert to its visibility store as a task of its own: four patches cost a new run four such
 * writes (bench/README.md, the soak's profile), this one costs one. Histories from before it have no such
 * marker and replay through the four patches as they were recorded.
 */
const RUN_PATHS_2026_11 = 'run-paths-2026-11';

/**
 * Marks the histories that take every path above and deliver their own announcements: the read-model
 * write that makes an announced status (`transition`, `finishRun`) returns the announcement when someone
 * listens, and the run workflow makes its deliveries as activities on the webhook queue
 * (deliverAnnouncement), finishing only once they ended. Histories from before it have the write start a
 * webhook fan-out workflow of its own for each announcement: a second workflow per run, with its own start,
 * tasks and visibility records, which cost about as much Temporal work as the run (bench/README.md, Soak).
 * The same marker has the run upsert `SvcRunStatus` only where it waits (a gate, an activity through
 * Temporal's task queues) and when it finishes: a status it leaves within the workflow task that set it
 * (`running` between local activities) costs no visibility write of its own.
 */
const RUN_PATHS_2026_11_24 = 'run-paths-2026-11-24';

/**
 * Marks the histories that take every path above and make the first attempts of their own announcements
 * in the workflow task that finished the run (`fanOutFirstAttemptsHere`, a local activity), when the
 * worker has an inline fan-out to spare; otherwise, and in histories from before it, the fan-out is an
 * activity on the webhook queue. A run that succeeds with a subscriber then closes in one workflow task,
 * with no activity task on the way (bench/README.md, Soak).
 */
const RUN_PATHS_2026_11_25 = 'run-paths-2026-11-25';

/** Which code paths a run takes, decided once at its start: a run in flight keeps its paths to the end. */
export interface RunPaths {
  closesAsCancelled: boolean;
  conversationInDb: boolean;
  storeLocal: boolean;
  inProcessTurnsLocal: boolean;
  /** The run workflow makes the deliveries of its announcements itself. */
  announcesInline: boolean;
  /** SvcRunStatus is upserted where the run waits and when it finishes, not at every change. */
  statusAtWaits: boolean;
  /** The fan-out's first attempts are tried as a local activity first. */
  fanOutHere: boolean;
}

/**
 * The paths of this run. A new run records the one marker of all of them; a history recorded before
 * replays through the marker it has: `run-paths-2026-11`, or the four patches in their order, each true
 * only where its own marker is.
 */
export function runPaths(): RunPaths {
  const every = { closesAsCancelled: true, conversationInDb: true, storeLocal: true, inProcessTurnsLocal: true };
  const inline = { ...every, announcesInline: true, statusAtWaits: true };
  if (patched(RUN_PATHS_2026_11_25)) return { ...inline, fanOutHere: true };
  if (patched(RUN_PATHS_2026_11_24)) return { ...inline, fanOutHere: false };
  if (patched(RUN_PATHS_2026_11)) return { ...every, announcesInline: false, statusAtWaits: false, fanOutHere: false };
  return {
    closesAsCancelled: patched(TEMPORAL_CANCELLATION),
    conversationInDb: patched(CONVERSATION_IN_DB),
    storeLocal: patched(STORE_LOCAL),
    inProcessTurnsLocal: patched(IN_PROCESS_TURNS_LOCAL),
    announcesInline: false,
    statusAtWaits: false,
    fanOutHere: false,
  };
}
