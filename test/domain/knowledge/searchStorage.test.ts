/**
 * The knowledge search ranks every matching document's vector, so the vectors stay in the table rows,
 * uncompressed (db/migrations/Migration20261123190000.ts, docs/api/knowledge.md#search): with PostgreSQL's
 * defaults a 150-word document's vector is compressed and moved out of its row, and a word found in most of
 * 10,000 documents took ten times longer to rank.
 */
import { bearer, createKey, setPlan, signUp } from '../../helpers/factories';
import { startApi, type Harness } from '../../helpers/harness';

describe('knowledge search vectors', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startApi();
  });
  afterAll(() => h.close());

  it('keeps the table set to store a vector in its row, uncompressed', async () => {
    const conn = h.orm.em.fork().getConnection();
    const [table] = await conn.execute(
      `select c.reloptions, a.attstorage from pg_class c
       join pg_attribute a on a.attrelid = c.oid and a.attname = 'search'
       where c.relname = 'knowledge_documents'`,
    );
    expect(table.reloptions).toEqual(['toast_tuple_target=8160']);
    expect(table.attstorage).toBe('m');
  });

  it('stores a 250-word document whole in its row', async () => {
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    const auth = bearer(await createKey(h, owner, ['agents:write']));
    const text = Array.from({ length: 250 }, (_, i) => `word${i}`).join(' ');
    const res = await h.request('/v1/knowledge', {
      method: 'POST',
      headers: auth,
      json: { title: 'Long enough', text },
    });
    expect(res.status).toBe(201);
    const { id } = await res.json();
    const [row] = await h.orm.em
      .fork()
      .getConnection()
      .execute(
        `select pg_column_size(search) as size, pg_column_compression(search) as compression
         from knowledge_documents where id = ?`,
        [id],
      );
    // Larger than the default 2 KB threshold, so only the table's settings keep it as it is.
    expect(row.size).toBeGreaterThan(2048);
    expect(row.compression).toBeNull();
  });
});
