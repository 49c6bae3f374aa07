import { loadConfig } from '../platform/config';
import { initMigratingOrm } from './migrator';

/** `npm run migrate`: applies every pending migration, then exits. */
async function main(): Promise<void> {
  const config = loadConfig();
  const orm = await initMigratingOrm(config.databaseUrl, 2);
  try {
    const applied = await orm.getMigrator().up();
    console.log(
      applied.length ? `migrated: ${applied.map((m) => m.name).join(', ')}` : 'database schema is up to date',
    );
  } finally {
    await orm.close(true);
  }
}

main().catch((err) => {
  console.error('migration failed:', err instanceof Error ? err.message : err);
  process.exit(1);
});
