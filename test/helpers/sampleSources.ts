import { Client } from 'pg';
import { createConnection } from 'mysql2/promise';

/**
 * Real database peers for the data-source tests (docs/testing.md): a second database `svc_sample` in
 * the test PostgreSQL cluster, read through the role `svc_reader` that may only SELECT; and the same
 * sample in the private MariaDB `npm test` starts (scripts/mariadb.sh) through `svc_reader`@`127.0.0.1`.
 */
export interface SampleDatabase {
  host: string;
  port: number;
  database: string;
  user: string;
  password: string;
}

export const SAMPLE_PASSWORD = 'Sample-Reader-Pw-7f3c9e';

const CUSTOMERS = [
  [1, 'Ada', 'London', 42.5, '2024-01-05'],
  [2, 'Grace', 'New York', 37, '2024-02-11'],
  [3, 'Linus', 'Helsinki', null, '2024-03-20'],
  [4, "O'Brien", 'Dublin', 12.25, '2024-04-01'],
  [5, 'Edsger', 'Amsterdam', 50, '2024-05-15'],
];

function adminUrl(): URL {
  return new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:54321/svc_test');
}

const ignore = (codes: string[]) => (err: { code?: string }) => {
  if (!codes.includes(err.code ?? '')) throw err;
};

/** Creates (once; concurrent callers wait on an advisory lock) the PostgreSQL sample and its read-only role. */
export async function samplePostgres(): Promise<SampleDatabase> {
  const url = adminUrl();
  const admin = new Client({ connectionString: url.href });
  await admin.connect();
  try {
    await admin.query('select pg_advisory_lock(7312001)');
    await admin.query('create database svc_sample').catch(ignore(['42P04']));
    await admin.query(`create role svc_reader login password '${SAMPLE_PASSWORD}'`).catch(ignore(['42710', '23505']));
    const sampleUrl = new URL(url.href);
    sampleUrl.pathname = '/svc_sample';
    const db = new Client({ connectionString: sampleUrl.href });
    await db.connect();
    try {
      await db.query(`create table if not exists customers (
        id int primary key, name text not null, city text not null, score numeric null, signed_up date not null)`);
      await db.query(`create or replace view london_customers as select id, name from customers where city = 'London'`);
      await db.query(`create table if not exists secrets_table (id int primary key, secret text)`);
      for (const row of CUSTOMERS) {
        await db.query('insert into customers values ($1, $2, $3, $4, $5) on conflict (id) do nothing', row);
      }
      await db.query('grant connect on database svc_sample to svc_reader');
      await db.query('grant usage on schema public to svc_reader');
      await db.query('grant select on customers, london_customers to svc_reader');
    } finally {
      await db.end();
    }
    await admin.query('select pg_advisory_unlock(7312001)');
  } finally {
    await admin.end();
  }
  return {
    host: '127.0.0.1',
    port: Number(url.port),
    database: 'svc_sample',
    user: 'svc_reader',
    password: SAMPLE_PASSWORD,
  };
}

/**
 * Creates the MariaDB sample and its read-only user. Throws saying why when `npm test` could not start
 * MariaDB (SVC_MARIADB_ERROR), so those tests fail with the reason rather than a connection error.
 */
export async function sampleMariadb(): Promise<SampleDatabase> {
  if (process.env.SVC_MARIADB_ERROR) throw new Error(process.env.SVC_MARIADB_ERROR);
  const port = Number(process.env.SVC_MARIADB_PORT);
  if (!port)
    throw new Error(
      'SVC_MARIADB_PORT is not set: run the tests through npm test (scripts/test.sh), which starts MariaDB',
    );
  const admin = await createConnection({ host: '127.0.0.1', port, user: 'svc', multipleStatements: false });
  try {
    await admin.query("select get_lock('svc_sample', 30)");
    await admin.query('create database if not exists svc_sample');
    await admin.query(`create user if not exists 'svc_reader'@'127.0.0.1' identified by '${SAMPLE_PASSWORD}'`);
    await admin.query(`create table if not exists svc_sample.customers (
      id int primary key, name varchar(100) not null, city varchar(100) not null, score decimal(10,2) null, signed_up date not null)`);
    await admin.query(
      `create or replace view svc_sample.london_customers as select id, name from svc_sample.customers where city = 'London'`,
    );
    for (const row of CUSTOMERS)
      await admin.query('insert ignore into svc_sample.customers values (?, ?, ?, ?, ?)', row);
    await admin.query(`grant select on svc_sample.* to 'svc_reader'@'127.0.0.1'`);
    await admin.query("select release_lock('svc_sample')");
  } finally {
    await admin.end();
  }
  return { host: '127.0.0.1', port, database: 'svc_sample', user: 'svc_reader', password: SAMPLE_PASSWORD };
}

/** Classic SQL-injection payloads, sent as identifiers and as values. */
export const INJECTION_PAYLOADS = [
  "' OR '1'='1",
  '1; DROP TABLE customers; --',
  '" OR 1=1 --',
  'customers"; DROP TABLE customers; --',
  'name`; DROP TABLE customers; --',
  "1' UNION SELECT secret FROM secrets_table --",
  "') OR ('a'='a",
  '1 OR 1=1',
  "admin'--",
  "'; WAITFOR DELAY '0:0:5'--",
  '1); SELECT pg_sleep(5); --',
  "\\'; DROP TABLE customers; --",
];

/**
 * A table of the sample database with one text row per size given (`id` 1, 2, … and `body` of that many
 * `x`), readable by the sample's reader; answers its name and a function that drops it.
 */
export async function bigRowsTable(
  type: 'postgres' | 'mysql',
  sizes: number[],
): Promise<{ name: string; drop: () => Promise<void> }> {
  const name = `big_rows_${Math.random().toString(36).slice(2, 10)}`;
  if (type === 'postgres') {
    const url = adminUrl();
    url.pathname = '/svc_sample';
    const db = new Client({ connectionString: url.href });
    await db.connect();
    try {
      await db.query(`create table ${name} (id int primary key, body text not null)`);
      for (const [i, size] of sizes.entries()) {
        await db.query(`insert into ${name} values ($1, repeat('x', $2))`, [i + 1, size]);
      }
      await db.query(`grant select on ${name} to svc_reader`);
    } finally {
      await db.end();
    }
    return {
      name,
      drop: async () => {
        const c = new Client({ connectionString: url.href });
        await c.connect();
        await c.query(`drop table ${name}`).finally(() => c.end());
      },
    };
  }
  const port = Number(process.env.SVC_MARIADB_PORT);
  const admin = () => createConnection({ host: '127.0.0.1', port, user: 'svc', database: 'svc_sample' });
  const db = await admin();
  try {
    await db.query(`create table ${name} (id int primary key, body longtext not null)`);
    for (const [i, size] of sizes.entries())
      await db.query(`insert into ${name} values (?, repeat('x', ?))`, [i + 1, size]);
  } finally {
    await db.end();
  }
  return {
    name,
    drop: async () => {
      const c = await admin();
      await c.query(`drop table ${name}`).finally(() => c.end());
    },
  };
}
