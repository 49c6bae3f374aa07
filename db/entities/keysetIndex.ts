/**
 * The index behind keyset pagination newest first (`created_at desc, id desc`) within `columns`,
 * declared as the SQL the migration ran: MikroORM cannot say `desc` per column, and it compares an
 * index given as an expression by its name.
 */
export function keysetIndex(name: string, table: string, ...columns: string[]): { name: string; expression: string } {
  const keys = [...columns.map((c) => `"${c}"`), '"created_at" desc', '"id" desc'].join(', ');
  return { name, expression: `create index "${name}" on "${table}" (${keys})` };
}
