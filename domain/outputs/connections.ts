import type { EntityManager } from '@mikro-orm/postgresql';
import { OutputConnection, OutputDelivery } from '../../db/entities/OutputConnection';
import { SavedTable } from '../../db/entities/SavedTable';
import type { Resolver } from '../../platform/net/publicAddress';
import type { SecretBox } from '../../platform/secrets';
import { secretSlot } from '../../db/secretColumns';
import { errors } from '../errors';
import { findPage } from '../shared/pagination';
import type { AuditContext } from '../audit/context';
import { recordAudit } from '../audit/record';
import { checkUrl } from '../webhooks/subscriptions';
import {
  serializeConnection,
  serializeOutputDelivery,
  type OutputConnectionView,
  type OutputDeliveryView,
} from './presenters';

export type NewOutputConnection =
  | { name: string; type: 'http'; url: string; secret: string }
  | { name: string; type: 'saved_table'; savedTableId: string };

export interface UrlCheckOptions {
  /** SVC_ALLOW_PRIVATE_WEBHOOKS: the same rule as webhook URLs (local development only). */
  allowPrivate: boolean;
  resolver?: Resolver;
}

/**
 * A live (not deleted) connection of the workspace.
 * @throws `not_found` when there is none, including one of another workspace
 */
export async function findConnection(em: EntityManager, workspaceId: string, id: string): Promise<OutputConnection> {
  const conn = await em.findOne(OutputConnection, { id, workspaceId, deletedAt: null });
  if (!conn) throw errors.notFound('Output connection');
  return conn;
}

/**
 * Creates a connection. An `http` URL must resolve to public addresses only, checked like a webhook URL
 * (and again before every attempt); a `saved_table` connection must name a saved table of the workspace.
 * @throws 400 `webhook.url_not_public`; 400 `validation_error` at `savedTableId` for an unknown table
 */
export async function createConnection(
  em: EntityManager,
  workspaceId: string,
  input: NewOutputConnection,
  opts: UrlCheckOptions & { box: SecretBox },
  audit: AuditContext,
): Promise<OutputConnectionView> {
  let conn: OutputConnection;
  if (input.type === 'saved_table') {
    const table = await em.findOne(SavedTable, { id: input.savedTableId, workspaceId }, { fields: ['id'] });
    if (!table) {
      throw errors.validation([{ path: 'savedTableId', message: `Unknown saved table ${input.savedTableId}` }]);
    }
    conn = new OutputConnection(workspaceId, input.name, 'saved_table');
    conn.savedTableId = table.id;
  } else {
    const url = await checkUrl(input.url, opts);
    conn = new OutputConnection(workspaceId, input.name, 'http');
    conn.url = url;
    conn.secret = opts.box.seal(input.secret, secretSlot('output_connections', conn.id, 'secret'));
  }
  await em.transactional(async (tx) => {
    await tx.persist(conn).flush();
    await recordAudit(tx, audit, {
      action: 'output_connection.created',
      resourceType: 'output_connection',
      resourceId: conn.id,
      details: { name: conn.name, type: conn.type, url: conn.url ?? null, savedTableId: conn.savedTableId ?? null },
    });
  });
  return serializeConnection(conn);
}

/** The workspace's live connections, newest first, one page. */
export async function listConnections(
  em: EntityManager,
  workspaceId: string,
  page: { limit: number; cursor?: string },
): Promise<{ items: OutputConnectionView[]; nextCursor: string | null }> {
  const { items, nextCursor } = await findPage(em, OutputConnection, { workspaceId, deletedAt: null }, page);
  return { items: items.map(serializeConnection), nextCursor };
}

/** One connection. @throws `not_found` */
export async function getConnection(em: EntityManager, workspaceId: string, id: string): Promise<OutputConnectionView> {
  return serializeConnection(await findConnection(em, workspaceId, id));
}

/**
 * Removes a connection; deliveries still retrying stop at their next attempt, which finds it gone, and
 * agents that list it skip it from then on.
 * @throws `not_found`
 */
export async function deleteConnection(
  em: EntityManager,
  workspaceId: string,
  id: string,
  audit: AuditContext,
): Promise<void> {
  const conn = await findConnection(em, workspaceId, id);
  await em.transactional(async (tx) => {
    // of two deletes, one finds nothing left to delete (404) and records nothing
    const deleted = await tx.nativeUpdate(
      OutputConnection,
      { id: conn.id, deletedAt: null },
      { deletedAt: new Date() },
    );
    if (!deleted) throw errors.notFound('Output connection');
    await recordAudit(tx, audit, {
      action: 'output_connection.deleted',
      resourceType: 'output_connection',
      resourceId: conn.id,
      details: { name: conn.name, type: conn.type },
    });
  });
}

/**
 * A connection's delivery log, newest first, one page.
 * @throws `not_found` when the connection is not a live one of the workspace
 */
export async function listOutputDeliveries(
  em: EntityManager,
  workspaceId: string,
  connectionId: string,
  page: { limit: number; cursor?: string },
): Promise<{ items: OutputDeliveryView[]; nextCursor: string | null }> {
  const conn = await findConnection(em, workspaceId, connectionId);
  const { items, nextCursor } = await findPage(em, OutputDelivery, { connectionId: conn.id }, page);
  return { items: items.map(serializeOutputDelivery), nextCursor };
}
