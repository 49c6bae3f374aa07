/**
 * Every file a run produces is its artifact (docs/api/runs.md#artifacts): the one function that writes a
 * run's file (domain/files/runFiles.ts) records it with the file's row. This holds it: a library row is made
 * only there and by the two upload paths (a caller's upload, a published app's form upload), which are run
 * inputs, not artifacts; bytes go to storage only there and in the upload readers of the API. A new writer
 * that skips storeRunFile fails here, naming its file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sourceFiles } from './importGraph';

const ROOT = path.resolve(__dirname, '../..');
const SOURCE_DIRS = ['api', 'activities', 'domain', 'db', 'platform', 'workflows', 'worker', 'scripts'];

/** Who may make a library row or put bytes in storage, and why. */
const ALLOWED: Record<string, string[]> = {
  'domain/files/runFiles.ts': ['constructs a File', 'puts bytes in storage'],
  // uploads by callers: inputs, not artifacts
  'domain/files/files.ts': ['constructs a File'],
  'domain/apps/public.ts': ['constructs a File'],
  'api/uploads.ts': ['puts bytes in storage'],
  'api/multipart.ts': ['puts bytes in storage'],
};

const WRITES: Array<[string, RegExp]> = [
  ['constructs a File', /\bnew\s+File\s*\(/],
  ['asks the ORM to create a File', /\.(?:create|insert|insertMany|nativeInsert|upsert|upsertMany)\s*\(\s*File\b/],
  ['inserts into files in SQL', /\binsert\s+into\s+"?files"?[\s(]/i],
  ['puts bytes in storage', /\bstorage\.put\s*\(/],
];

/** What `text` writes to the library, as `file: what` lines. */
function fileWrites(file: string, text: string): string[] {
  return WRITES.filter(([, pattern]) => pattern.test(text)).map(([what]) => `${file}: ${what}`);
}

describe('file writers', () => {
  it('only storeRunFile and the upload paths write to the file library', () => {
    const files = sourceFiles(SOURCE_DIRS).filter((f) => !f.endsWith('.d.ts'));
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((f) => fileWrites(f, fs.readFileSync(path.join(ROOT, f), 'utf8')));
    const allowed = Object.entries(ALLOWED).flatMap(([f, whats]) => whats.map((what) => `${f}: ${what}`));
    expect(found.filter((w) => !allowed.includes(w))).toEqual([]);
    // the checker is not blind: it sees the one writer of run files
    expect(found).toEqual(expect.arrayContaining(['domain/files/runFiles.ts: constructs a File']));
  });

  it.each([
    ["const f = new File(ws, 'out.pdf', mime, size, sha, key);", 'constructs a File'],
    ['em.create(File, { filename })', 'asks the ORM to create a File'],
    ['await em.execute(\'insert into "files" (id) values (?)\');', 'inserts into files in SQL'],
    ['await deps.storage.put(key, Readable.from(bytes), {});', 'puts bytes in storage'],
  ])('catches a planted writer: %s', (snippet, what) => {
    expect(fileWrites('domain/planted.ts', snippet)).toEqual([`domain/planted.ts: ${what}`]);
  });
});
