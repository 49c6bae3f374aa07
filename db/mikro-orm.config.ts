// Entry point for the `mikro-orm` CLI (e.g. `npm run migration:create`).
import { ormOptions } from './config';

export default ormOptions(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:54320/svc');
