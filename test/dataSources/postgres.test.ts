import { createServer, type Server } from 'node:net';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import { startApi, type Harness } from '../helpers/harness';
import { error, ok } from '../helpers/responses';
import { samplePostgres } from '../helpers/sampleSources';
import { databaseSourceSuite } from './databaseSuite';

// PostgreSQL data sources against a second database of the test cluster, through a read-only role.
describe('postgres data sources', () => {
  databaseSourceSuite('postgres', samplePostgres);
});

/**
 * A PostgreSQL-protocol trap on 127.0.0.1: it answers every startup message by asking for the password in
 * clear text (AuthenticationCleartextPassword), and records every byte a client sends it.
 */
async function passwordTrap(): Promise<{ port: number; received: () => string; close: () => Promise<void> }> {
  const chunks: Buffer[] = [];
  const server: Server = createServer((socket) => {
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      // a startup message (no type byte) gets the cleartext password request; the password message ends it
      if (chunk[0] === 0x70) socket.end();
      else socket.write(Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 3]));
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    received: () => Buffer.concat(chunks).toString('latin1'),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('a postgres data source moved to another server', () => {
  let h: Harness;
  let trap: Awaited<ReturnType<typeof passwordTrap>>;
  beforeAll(async () => {
    trap = await passwordTrap();
    h = await startApi({ allowPrivateEgress: true });
  });
  afterAll(async () => {
    await h?.close();
    await trap?.close();
  });

  it('never sends the stored password to the new host: the move needs the password again', async () => {
    const db = await samplePostgres();
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    const manager = bearer(await createKey(h, owner, ['data_sources:read', 'data_sources:manage']));
    const call = (method: string, path: string, json?: unknown) => h.request(path, { method, headers: manager, json });
    const source = await ok(call('POST', '/v1/data-sources', { name: 'Prod', type: 'postgres', config: db }), 201);
    const path = `/v1/data-sources/${source.id}`;

    await error(call('PATCH', path, { config: { port: trap.port } }), 400, 'validation_error');
    expect((await ok(call('POST', `${path}/test`), 200)).ok).toBe(true);
    expect(trap.received()).toBe('');

    // moved with a password of its own, the trap gets that one: it would have caught the stored one
    await ok(call('PATCH', path, { config: { port: trap.port, password: 'Given-For-The-Move' } }), 200);
    expect((await ok(call('POST', `${path}/test`), 200)).ok).toBe(false);
    expect(trap.received()).toContain('Given-For-The-Move');
    expect(trap.received()).not.toContain(db.password);
  });
});
