// Entry point for the `mikro-orm` CLI (e.g. `npm run migration:create`).
import { migrationOptions } from './migrator';

export default migrationOptions(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:54320/svc');
