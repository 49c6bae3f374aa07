import { csvCell } from '../../domain/audit/csv';
import { startApi, type Harness } from '../helpers/harness';
import { signUp } from '../helpers/factories';
import { ok } from '../helpers/responses';

/** A minimal RFC 4180 reader: quoted cells, doubled quotes, CRLF rows. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i += 1;
    } else cell += c;
  }
  return rows;
}

// The audit log's CSV export (docs/api/audit.md#export).
describe('audit export', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startApi();
  });
  afterAll(() => h.close());

  it('neutralises formula prefixes and keeps quotes, commas and line breaks inside their cell', () => {
    for (const text of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) expect(csvCell(text)).toBe(`"'${text}"`);
    expect(csvCell('plain')).toBe('"plain"');
    expect(csvCell('a "b", c\nd')).toBe('"a ""b"", c\nd"');
    expect(csvCell(null)).toBe('""');
  });

  it('exports every entry as CSV through ?format=csv and /v1/audit/export, formula-safe', async () => {
    const owner = await signUp(h);
    const auth = { cookie: owner.cookie };
    const agents = ['=HYPERLINK("http://evil.example","x")', '+SUM(1,2)', '-2+3', '@cmd'];
    for (const [i, agent] of agents.entries()) {
      const json = { name: `key "${i}", quoted`, scopes: ['runs:read'] };
      await ok(h.request('/v1/api-keys', { method: 'POST', headers: { ...auth, 'user-agent': agent }, json }), 201);
    }
    const viaFormat = await h.request('/v1/audit?format=csv', { headers: auth });
    expect(viaFormat.status).toBe(200);
    expect(viaFormat.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(viaFormat.headers.get('content-disposition')).toContain('attachment');
    const text = await viaFormat.text();
    const viaExport = await h.request('/v1/audit/export', { headers: auth });
    expect(await viaExport.text()).toBe(text);

    const [header, ...rows] = parseCsv(text);
    expect(header).toEqual([
      'id',
      'at',
      'action',
      'resourceType',
      'resourceId',
      'actorType',
      'actorUserId',
      'actorKeyId',
      'ip',
      'userAgent',
      'requestId',
      'details',
      'prevHash',
      'hash',
    ]);
    expect(rows).toHaveLength(4);
    const column = (name: string) => rows.map((r) => r[header.indexOf(name)]);
    // newest first; every agent that a spreadsheet would run starts with a quote instead
    expect(column('userAgent')).toEqual([...agents].reverse().map((a) => `'${a}`));
    expect(column('actorUserId')).toEqual(Array(4).fill(owner.userId));
    expect(JSON.parse(column('details')[0])).toMatchObject({ name: 'key "3", quoted' });
    const list = await ok(h.request('/v1/audit', { headers: auth }), 200);
    expect(column('hash')).toEqual(list.entries.map((e: { hash: string }) => e.hash));
    // filters apply to the export too
    const filtered = await (await h.request(`/v1/audit/export?resourceType=webhook`, { headers: auth })).text();
    expect(parseCsv(filtered)).toHaveLength(1);
  });
});
