import { samplePostgres } from '../helpers/sampleSources';
import { databaseSourceSuite } from './databaseSuite';

// PostgreSQL data sources against a second database of the test cluster, through a read-only role.
describe('postgres data sources', () => {
  databaseSourceSuite('postgres', samplePostgres);
});
