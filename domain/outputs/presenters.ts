import type { OutputAttempt, OutputConnection, OutputDelivery } from '../../db/entities/OutputConnection';

/** A connection as callers see it: never its secret (docs/api/output-connections.md). */
export interface OutputConnectionView {
  id: string;
  name: string;
  type: OutputConnection['type'];
  url: string | null;
  savedTableId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** One entry of a connection's delivery log, with every attempt made so far. */
export interface OutputDeliveryView {
  id: string;
  runId: string | null;
  flowRunId: string | null;
  status: OutputDelivery['status'];
  attempts: OutputAttempt[];
  createdAt: string;
}

export function serializeConnection(c: OutputConnection): OutputConnectionView {
  return {
    id: c.id,
    name: c.name,
    type: c.type,
    url: c.url,
    savedTableId: c.savedTableId,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}

export function serializeOutputDelivery(d: OutputDelivery): OutputDeliveryView {
  return {
    id: d.id,
    runId: d.runId,
    flowRunId: d.flowRunId,
    status: d.status,
    attempts: d.attempts,
    createdAt: d.createdAt.toISOString(),
  };
}
