/**
 * Jest runs every test against the real PostgreSQL and Temporal that `scripts/test.sh` starts
 * (their addresses arrive through DATABASE_URL and TEMPORAL_ADDRESS). swc transpiles TypeScript;
 * type checking is `npm run typecheck`'s job, so tests stay fast. Names resolve through a DNS server of the
 * run's own on 127.0.0.1 (test/helpers/globalDns.ts).
 */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.(t|j)s$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } },
    ],
  },
  // the client package is ESM and imports its own files with `.js`; map those back to the sources
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testTimeout: 60000,
  // a DNS server on 127.0.0.1 for the whole run (SVC_DNS_SERVERS): no test asks the machine's resolver
  globalSetup: '<rootDir>/test/helpers/globalSetup.ts',
  globalTeardown: '<rootDir>/test/helpers/globalTeardown.ts',
  // 2 cores: the services already use one; more jest workers only contend
  maxWorkers: 2,
};
