import { sampleMariadb } from '../helpers/sampleSources';
import { databaseSourceSuite } from './databaseSuite';

// MySQL data sources against the private MariaDB that npm test starts (scripts/mariadb.sh).
describe('mysql data sources', () => {
  databaseSourceSuite('mysql', sampleMariadb);
});
