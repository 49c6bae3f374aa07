import { EntitySchema } from '@mikro-orm/core';
import { BaseEntity } from './BaseEntity';
import { keysetIndex } from './keysetIndex';
import { Workspace } from './Workspace';

export const OUTPUT_CONNECTION_TYPES = ['http', 'saved_table'] as const;
export type OutputConnectionType = (typeof OUTPUT_CONNECTION_TYPES)[number];

/**
 * A save-output connection (docs/api/output-connections.md): where a run's output is sent when it
 * succeeds. `http` connections keep their secret (it signs every delivery, so it cannot be hashed),
 * marked hidden and never serialised, returned or logged.
 */
export class OutputConnection extends BaseEntity {
  deletedAt: Date | null = null;
  url: string | null = null;
  secret: string | null = null;
  savedTableId: string | null = null;

  constructor(
    public workspaceId: string,
    public name: string,
    public type: OutputConnectionType,
  ) {
    super();
  }
}

export const OutputConnectionSchema = new EntitySchema<OutputConnection, BaseEntity>({
  class: OutputConnection,
  extends: 'BaseEntity',
  tableName: 'output_connections',
  indexes: [keysetIndex('output_connections_workspace_created_index', 'output_connections', 'workspace_id')],
  properties: {
    workspaceId: {
      kind: 'm:1',
      entity: () => Workspace,
      mapToPk: true,
      fieldName: 'workspace_id',
      foreignKeyName: 'output_connections_workspace_id_fkey',
      deleteRule: 'cascade',
      updateRule: 'cascade',
    },
    name: { type: 'string', length: 200 },
    type: { type: 'string', length: 16 },
    url: { type: 'text', nullable: true },
    secret: { type: 'text', nullable: true, hidden: true, lazy: false },
    savedTableId: { type: 'uuid', nullable: true },
    deletedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});

export interface OutputAttempt {
  at: string;
  statusCode: number | null;
  error: string | null;
}

/**
 * One output sent to one connection: the delivery log entry. `body` is serialised once, so every attempt
 * sends identical bytes; `sourceKey` names what produced the output (`run:<id>`, or a flow step's key),
 * and is unique per connection, so recording the same output twice records it once.
 */
export class OutputDelivery extends BaseEntity {
  status: 'pending' | 'succeeded' | 'failed' = 'pending';
  attempts: OutputAttempt[] = [];
  runId: string | null = null;
  flowRunId: string | null = null;

  constructor(
    public connectionId: string,
    public workspaceId: string,
    public sourceKey: string,
    public body: string,
  ) {
    super();
  }
}

export const OutputDeliverySchema = new EntitySchema<OutputDelivery, BaseEntity>({
  class: OutputDelivery,
  extends: 'BaseEntity',
  tableName: 'output_deliveries',
  uniques: [{ name: 'output_deliveries_source_unique', properties: ['connectionId', 'sourceKey'] }],
  indexes: [keysetIndex('output_deliveries_connection_created_index', 'output_deliveries', 'connection_id')],
  properties: {
    connectionId: {
      kind: 'm:1',
      entity: () => OutputConnection,
      mapToPk: true,
      fieldName: 'connection_id',
      foreignKeyName: 'output_deliveries_connection_id_fkey',
      deleteRule: 'cascade',
      updateRule: 'no action',
    },
    workspaceId: { type: 'uuid' },
    sourceKey: { type: 'string', length: 255 },
    runId: { type: 'uuid', nullable: true },
    flowRunId: { type: 'uuid', nullable: true },
    body: { type: 'text' },
    // the class starts every delivery `pending`; the column itself has no default
    status: { type: 'string', length: 16, default: null },
    attempts: { type: 'json', default: [] },
  },
});
