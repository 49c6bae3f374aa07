import { MikroORM } from '@mikro-orm/postgresql';
import { ormOptions } from './config';

export type Orm = MikroORM;

/** Connects the ORM. `connect: false` lets a process start while PostgreSQL is still down; /readyz tells. */
export async function initOrm(databaseUrl: string, poolMax?: number): Promise<Orm> {
  return MikroORM.init({ ...ormOptions(databaseUrl, poolMax), connect: false });
}
