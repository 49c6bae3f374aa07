import { createRequire } from 'node:module';
import * as proto from '@temporalio/proto';
import { patchProtobufRoot } from '@temporalio/proto/lib/patch-protobuf-root';

type History = proto.temporal.api.history.v1.IHistory;

/*
 * Temporal's JSON history format (proto3 JSON, as `temporal workflow show --output json` writes it).
 * `historyToJSON` / `historyFromJSON` of @temporalio/common do this, but in this install they throw
 * "type must be a Type": @temporalio/common and @temporalio/proto each have their own copy of
 * protobufjs, and protojson's `instanceof Type` check fails across the two. So the converter here
 * takes protojson from the copy @temporalio/proto's types were built with.
 */
const protojson = createRequire(require.resolve('@temporalio/proto'))('protobufjs/ext/protojson') as {
  toJson(type: unknown, message: unknown): unknown;
  fromJson(type: unknown, json: unknown, options?: { ignoreUnknownFields?: boolean }): unknown;
};
const historyType = (patchProtobufRoot(proto) as unknown as { lookupType(name: string): unknown }).lookupType(
  'temporal.api.history.v1.History',
);

/** A fetched history (`handle.fetchHistory()`) as JSON text, one event per line (small, and diffs by event). */
export function historyToJSON(history: History): string {
  const json = protojson.toJson(historyType, proto.temporal.api.history.v1.History.fromObject(history)) as {
    events: unknown[];
  };
  return `{"events":[\n${json.events.map((e) => JSON.stringify(e)).join(',\n')}\n]}\n`;
}

/**
 * JSON text back into a history `Worker.runReplayHistories` takes as it is (event ids as Long, so
 * the worker does not run it through the failing `historyFromJSON`). Unknown fields, e.g. from a
 * newer server, are ignored.
 */
export function historyFromJSON(text: string): History {
  const loaded = protojson.fromJson(historyType, JSON.parse(text), { ignoreUnknownFields: true });
  if (!loaded) throw new TypeError('not a workflow history');
  return loaded as History;
}
