import type { EntityManager } from '@mikro-orm/postgresql';
import { SECRET_COLUMNS, openSecret } from '../../db/secretColumns';
import type { SecretBox } from '../../platform/secrets';

/** Rows read and updated per statement, so a large table is never held in memory or locked at once. */
const BATCH = 200;

/** What rotation did to one column. */
export interface ColumnRotation {
  table: string;
  column: string;
  /** Re-sealed under the current key (from an earlier key, the legacy format or plaintext). */
  resealed: number;
  /** Already sealed under the current key: left alone. */
  current: number;
  /** Did not open (another row's value, a key no longer configured, altered): left as it is. */
  failed: number;
}

/**
 * Re-seals every stored secret (db/secretColumns.ts) under the current key: values of an earlier key in
 * `SVC_SECRETS_KEYS`, the legacy `v1.` format and legacy plaintext. Walks each table by id in batches;
 * each value is replaced only if it is still the one read, so it is safe next to running processes and
 * running it again changes nothing (docs/architecture.md, "Secrets").
 */
export async function rotateSecrets(em: EntityManager, box: SecretBox): Promise<ColumnRotation[]> {
  const conn = em.getConnection();
  const report: ColumnRotation[] = [];
  for (const { table, column } of SECRET_COLUMNS) {
    const counts: ColumnRotation = { table, column, resealed: 0, current: 0, failed: 0 };
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const rows: Array<{ id: string; value: string }> = await conn.execute(
        `select id, ${column} as value from ${table}
         where id > ? and ${column} is not null and ${column} <> '' order by id limit ?`,
        [after, BATCH],
      );
      if (rows.length === 0) break;
      after = rows[rows.length - 1].id;
      for (const row of rows) {
        if (box.state(row.value) === 'current') {
          counts.current++;
          continue;
        }
        const slot = { table, id: row.id, column };
        let plaintext: string;
        try {
          plaintext = openSecret(box, row.value, slot);
        } catch {
          counts.failed++;
          continue;
        }
        const changed = await conn.execute(
          `update ${table} set ${column} = ? where id = ? and ${column} = ?`,
          [box.seal(plaintext, slot), row.id, row.value],
          'run',
        );
        if ((changed as { affectedRows?: number }).affectedRows) counts.resealed++;
      }
    }
    report.push(counts);
  }
  return report;
}
