/**
 * Every run passes one gate (domain/runs/runGate.ts, docs/api/billing.md#who-pays): the unverified limit,
 * the key's spend cap and the credit hold. This holds it: no file but the gate and its one-statement form
 * makes a `Run` row, whether by constructing the entity, asking the ORM to insert one, or SQL. A failure
 * names the file and what it does.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sourceFiles } from './importGraph';

const ROOT = path.resolve(__dirname, '../..');
const GATE = new Set(['domain/runs/runGate.ts', 'domain/runs/insertRun.ts']);
const SOURCE_DIRS = ['api', 'activities', 'domain', 'db', 'platform', 'workflows', 'worker', 'scripts'];

/** What makes a run row outside the gate: the entity, the ORM's inserts of it, the gate's own draft, SQL. */
const RUN_INSERTS: Array<[string, RegExp]> = [
  ['constructs a Run', /\bnew\s+Run\s*\(/],
  ['drafts a run outside the gate', /\bdraftRun\s*\(/],
  ['asks the ORM to create a Run', /\.(?:create|insert|insertMany|nativeInsert|upsert|upsertMany)\s*\(\s*Run\b/],
  ['inserts into runs in SQL', /\binsert\s+into\s+"?runs"?[\s(]/i],
];

/** The ways `text` makes a run row, as `file: what` lines. */
export function runInserts(file: string, text: string): string[] {
  return RUN_INSERTS.filter(([, pattern]) => pattern.test(text)).map(([what]) => `${file}: ${what}`);
}

describe('run inserts', () => {
  it('only the run gate makes runs', () => {
    const files = sourceFiles(SOURCE_DIRS).filter((f) => !GATE.has(f) && !f.endsWith('.d.ts'));
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((f) => runInserts(f, fs.readFileSync(path.join(ROOT, f), 'utf8')));
    expect(found).toEqual([]);
  });

  it('the gate itself is seen making runs (the checker is not blind)', () => {
    const found = [...GATE].flatMap((f) => runInserts(f, fs.readFileSync(path.join(ROOT, f), 'utf8')));
    expect(found).toEqual(
      expect.arrayContaining([
        'domain/runs/runGate.ts: constructs a Run',
        'domain/runs/insertRun.ts: inserts into runs in SQL',
      ]),
    );
  });

  it.each([
    ['const run = new Run(ws, agent.id, 1, {}, {});\nawait em.persist(run).flush();', 'constructs a Run'],
    ['em.create(Run, { workspaceId })', 'asks the ORM to create a Run'],
    ['await em.insert(Run, row);', 'asks the ORM to create a Run'],
    ['await em.execute(\'INSERT INTO "runs" (id) values (?)\', [id]);', 'inserts into runs in SQL'],
    ['`insert into runs (id, workspace_id) select ...`', 'inserts into runs in SQL'],
    ['const run = draftRun(who, draft); tx.persist(run);', 'drafts a run outside the gate'],
  ])('catches a planted insert: %s', (snippet, what) => {
    expect(runInserts('domain/planted.ts', snippet)).toEqual([`domain/planted.ts: ${what}`]);
  });

  it('leaves reads and other tables alone', () => {
    const text = "em.find(Run, { id }); em.execute('insert into run_events (run_id) values (?)'); new RunStep(id);";
    expect(runInserts('domain/reader.ts', text)).toEqual([]);
  });
});
