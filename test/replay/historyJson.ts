import { historyFromJSON as fromJSON, historyToJSON as toJSON } from '@temporalio/common/lib/proto-utils';
import type * as proto from '@temporalio/proto';

type History = proto.temporal.api.history.v1.IHistory;

/*
 * Temporal's JSON history format (proto3 JSON, as `temporal workflow show --output json` writes it), through
 * the SDK's own converters. They need the one copy of protobufjs that @temporalio/common and @temporalio/proto
 * share: package.json pins protobufjs at their version so npm installs it once at the top.
 */

/** A fetched history (`handle.fetchHistory()`) as JSON text, one event per line (small, and diffs by event). */
export function historyToJSON(history: History): string {
  const json = JSON.parse(toJSON(history)) as { events: unknown[] };
  return `{"events":[\n${json.events.map((e) => JSON.stringify(e)).join(',\n')}\n]}\n`;
}

/** JSON text back into a history `Worker.runReplayHistories` takes. Unknown fields, e.g. from a newer server, are ignored. */
export function historyFromJSON(text: string): History {
  return fromJSON(JSON.parse(text));
}
