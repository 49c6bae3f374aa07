import type { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { OutputConnection, OutputDelivery } from '../../db/entities/OutputConnection';
import { secretSlot } from '../../db/secretColumns';
import { failDelivery } from '../deliveries/deliveryLog';
import { OUTPUT_DELIVERIES } from './outputDeliveries';
import { sendSignedAttempt } from '../deliveries/signedAttempt';
import type { DeliveryOptions } from '../deliveries/signedPost';
import { findConnection } from './connections';
import { appendOutputRow } from './savedTableDelivery';

export type { DeliveryOptions };

/** What produced an output: a run, or a step of a flow run. */
export interface OutputSource {
  runId?: string | null;
  flowRunId?: string | null;
  /**
   * What makes this output one delivery per connection: recording the same key twice records it once
   * (a retried activity). Default `run:<runId>`; a flow step passes e.g. `flow-run:<id>:<step name>`.
   */
  key?: string;
}

/**
 * What one attempt came to. `connection_gone`: the connection was deleted, so no attempt is made and none
 * should follow; `target_gone`: a saved table connection's table was deleted, the delivery is `failed` and
 * none should follow; `attempt_failed`: recorded in the log, another may follow.
 */
export type OutputAttemptOutcome =
  | { outcome: 'delivered' }
  | { outcome: 'connection_gone' }
  | { outcome: 'target_gone'; error: string }
  | { outcome: 'attempt_failed'; error: string };

function sourceKey(source: OutputSource): string {
  if (source.key) return source.key.slice(0, 255);
  if (source.runId) return `run:${source.runId}`;
  if (source.flowRunId) return `flow-run:${source.flowRunId}`;
  throw new Error('an output source needs a key, a runId or a flowRunId');
}

/**
 * Records one output for one connection of the workspace and returns the delivery's id (`pending`). The body
 * (docs/api/output-connections.md) is serialised here once, so every attempt sends identical bytes. Idempotent
 * on (connection, source key): a second call returns the delivery the first recorded, its body unchanged.
 * @throws `not_found` when the connection is not a live one of the workspace
 */
export async function recordOutputDelivery(
  em: EntityManager,
  workspaceId: string,
  connectionId: string,
  output: unknown,
  source: OutputSource,
): Promise<string> {
  const conn = await findConnection(em, workspaceId, connectionId);
  const key = sourceKey(source);
  const id = randomUUID();
  const body = JSON.stringify({
    id,
    type: 'output',
    connectionId: conn.id,
    runId: source.runId ?? null,
    flowRunId: source.flowRunId ?? null,
    output: output ?? null,
  });
  const now = new Date();
  const sql = em.getConnection();
  await sql.execute(
    `insert into output_deliveries (id, created_at, updated_at, connection_id, workspace_id, source_key, run_id, flow_run_id, body, status, attempts)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', '[]')
     on conflict (connection_id, source_key) do nothing`,
    [id, now, now, conn.id, workspaceId, key, source.runId ?? null, source.flowRunId ?? null, body],
  );
  const [row]: Array<{ id: string }> = await sql.execute(
    `select id from output_deliveries where connection_id = ? and source_key = ?`,
    [conn.id, key],
  );
  return row.id;
}

/**
 * Makes attempt number `attempt` (1-based) of an output delivery and records it in the connection's log. A
 * `saved_table` connection appends the output as a row (domain/outputs/savedTableDelivery.ts). For `http`, a
 * 2xx marks it `succeeded`. Signed and guarded exactly like a webhook delivery (docs/api/webhooks.md): the
 * URL is resolved and checked before every attempt and the connection goes to the checked address; a 3xx is
 * a failure (redirects are never followed), as are other statuses, timeouts and connection errors.
 * @throws only when the database fails (the attempt is then not recorded)
 */
export async function attemptOutputDelivery(
  em: EntityManager,
  deliveryId: string,
  attempt: number,
  opts: DeliveryOptions,
): Promise<OutputAttemptOutcome> {
  const delivery = await em.findOneOrFail(OutputDelivery, deliveryId);
  // Recorded again by a retried step (same source key) after it went through: it is not sent twice.
  if (delivery.status === 'succeeded') return { outcome: 'delivered' };
  const conn = await em.findOne(OutputConnection, delivery.connectionId);
  // A connection deleted mid-retry stops receiving at once.
  if (!conn || conn.deletedAt) return { outcome: 'connection_gone' };
  if (conn.type === 'saved_table') return appendOutputRow(em, delivery, conn);
  if (!conn.url || !conn.secret) {
    return { outcome: 'connection_gone' };
  }
  const target = {
    deliveryId: delivery.id,
    url: conn.url,
    secret: conn.secret,
    secretSlot: secretSlot('output_connections', conn.id, 'secret'),
    body: delivery.body,
  };
  return sendSignedAttempt(em, OUTPUT_DELIVERIES, target, attempt, opts);
}

/** Marks a delivery whose attempts are used up (or whose connection is gone) as failed; a no-op once finished. */
export function failOutputDelivery(em: EntityManager, deliveryId: string): Promise<void> {
  return failDelivery(em, OUTPUT_DELIVERIES, deliveryId);
}

/**
 * Records an output for a connection and makes one attempt at once, outside Temporal (the retries are the
 * caller's: Temporal callers use the activities and `outputDeliveryWorkflow` instead). Returns the delivery
 * id and what the attempt came to.
 * @throws `not_found` when the connection is not a live one of the workspace
 */
export async function sendOutput(
  em: EntityManager,
  workspaceId: string,
  connectionId: string,
  output: unknown,
  source: OutputSource,
  opts: DeliveryOptions,
  attempt = 1,
): Promise<{ deliveryId: string } & OutputAttemptOutcome> {
  const deliveryId = await recordOutputDelivery(em, workspaceId, connectionId, output, source);
  return { deliveryId, ...(await attemptOutputDelivery(em, deliveryId, attempt, opts)) };
}
