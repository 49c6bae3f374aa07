import { randomUUID } from 'node:crypto';
import { EntitySchema } from '@mikro-orm/core';

/** Every row has a UUID id and its own timestamps (every id the API shows is a UUID). */
export abstract class BaseEntity {
  id: string = randomUUID();
  createdAt: Date = new Date();
  updatedAt: Date = new Date();
}

// Entities are declared with EntitySchema rather than decorators so the same files load unchanged
// under tsx, swc (jest), tsc output and the Temporal worker, without reflect-metadata.
export const BaseEntitySchema = new EntitySchema<BaseEntity>({
  name: 'BaseEntity',
  abstract: true,
  properties: {
    id: { type: 'uuid', primary: true },
    // milliseconds, as keyset cursors carry them (Migration20261122050000)
    createdAt: { type: 'Date', columnType: 'timestamptz(3)' },
    updatedAt: { type: 'Date', columnType: 'timestamptz', onUpdate: () => new Date() },
  },
});
