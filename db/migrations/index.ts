import { Migration20261122000000 } from './Migration20261122000000';
import { Migration20261122010000 } from './Migration20261122010000';
import { Migration20261122020000 } from './Migration20261122020000';
import { Migration20261122030000 } from './Migration20261122030000';
import { Migration20261122040000 } from './Migration20261122040000';
import { Migration20261122050000 } from './Migration20261122050000';
import { Migration20261122060000 } from './Migration20261122060000';
import { Migration20261123100000 } from './Migration20261123100000';
import { Migration20261123113000 } from './Migration20261123113000';
import { Migration20261123133000 } from './Migration20261123133000';
import { Migration20261123140000 } from './Migration20261123140000';
import { Migration20261123141000 } from './Migration20261123141000';
import { Migration20261123150000 } from './Migration20261123150000';
import { Migration20261123160000 } from './Migration20261123160000';
import { Migration20261123160100 } from './Migration20261123160100';
import { Migration20261123170000 } from './Migration20261123170000';
import { Migration20261123180000 } from './Migration20261123180000';
import { Migration20261123180100 } from './Migration20261123180100';
import { Migration20261123181000 } from './Migration20261123181000';
import { Migration20261123182000 } from './Migration20261123182000';
import { Migration20261123183000 } from './Migration20261123183000';
import { Migration20261123183100 } from './Migration20261123183100';
import { Migration20261123184000 } from './Migration20261123184000';
import { Migration20261123190000 } from './Migration20261123190000';
import { Migration20261124100000 } from './Migration20261124100000';
import { Migration20261124110000 } from './Migration20261124110000';
import { Migration20261124120000 } from './Migration20261124120000';
import { Migration20261124130000 } from './Migration20261124130000';
import { Migration20261124140000 } from './Migration20261124140000';
import { Migration20261125040000 } from './Migration20261125040000';
import { Migration20261127090000 } from './Migration20261127090000';
import { Migration20261127220000 } from './Migration20261127220000';
import { Migration20261128010000 } from './Migration20261128010000';
import { Migration20261207030000 } from './Migration20261207030000';
import { Migration20261207080000 } from './Migration20261207080000';

/**
 * Migrations are listed explicitly rather than discovered by glob, so they run the same under tsx,
 * jest and compiled output. Append new ones in timestamp order.
 */
export const migrationsList = [
  { name: 'Migration20261122000000', class: Migration20261122000000 },
  { name: 'Migration20261122010000', class: Migration20261122010000 },
  { name: 'Migration20261122020000', class: Migration20261122020000 },
  { name: 'Migration20261122030000', class: Migration20261122030000 },
  { name: 'Migration20261122040000', class: Migration20261122040000 },
  { name: 'Migration20261122050000', class: Migration20261122050000 },
  { name: 'Migration20261122060000', class: Migration20261122060000 },
  { name: 'Migration20261123100000', class: Migration20261123100000 },
  { name: 'Migration20261123113000', class: Migration20261123113000 },
  { name: 'Migration20261123133000', class: Migration20261123133000 },
  { name: 'Migration20261123140000', class: Migration20261123140000 },
  { name: 'Migration20261123141000', class: Migration20261123141000 },
  { name: 'Migration20261123150000', class: Migration20261123150000 },
  { name: 'Migration20261123160000', class: Migration20261123160000 },
  { name: 'Migration20261123160100', class: Migration20261123160100 },
  { name: 'Migration20261123170000', class: Migration20261123170000 },
  { name: 'Migration20261123180000', class: Migration20261123180000 },
  { name: 'Migration20261123180100', class: Migration20261123180100 },
  { name: 'Migration20261123181000', class: Migration20261123181000 },
  { name: 'Migration20261123182000', class: Migration20261123182000 },
  { name: 'Migration20261123183000', class: Migration20261123183000 },
  { name: 'Migration20261123183100', class: Migration20261123183100 },
  { name: 'Migration20261123184000', class: Migration20261123184000 },
  { name: 'Migration20261123190000', class: Migration20261123190000 },
  { name: 'Migration20261124100000', class: Migration20261124100000 },
  { name: 'Migration20261124110000', class: Migration20261124110000 },
  { name: 'Migration20261124120000', class: Migration20261124120000 },
  { name: 'Migration20261124130000', class: Migration20261124130000 },
  { name: 'Migration20261124140000', class: Migration20261124140000 },
  { name: 'Migration20261125040000', class: Migration20261125040000 },
  { name: 'Migration20261127090000', class: Migration20261127090000 },
  { name: 'Migration20261127220000', class: Migration20261127220000 },
  { name: 'Migration20261128010000', class: Migration20261128010000 },
  { name: 'Migration20261207030000', class: Migration20261207030000 },
  { name: 'Migration20261207080000', class: Migration20261207080000 },
];
