/**
 * The packages of platform/lazyPackages.ts load on first use, never when a process starts
 * (docs/architecture.md#packages-loaded-on-first-use): no service file imports one for its values, and a
 * process that builds the API and the worker has loaded none of them. A failure names the file and line, or
 * the package that loaded and who loads it.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LAZY_PACKAGES } from '../../platform/lazyPackages';
import { matchingLines, ROOT, sourceFiles } from './importGraph';

const SOURCE_DIRS = ['api', 'activities', 'domain', 'db', 'platform', 'workflows', 'worker'];
const LOADER = 'platform/lazyPackages.ts';
/** Loaded only by what applies migrations (db/migrator.ts), never by the API or the worker. */
const MIGRATIONS = ['@mikro-orm/migrations'];

/** The lines of `text` (the file `file`) that import a lazy package for its values, as `file:line: code`. */
export function eagerImports(file: string, text: string): string[] {
  if (file === LOADER) return [];
  const names = LAZY_PACKAGES.map((p) => p.replace(/[/.]/g, '\\$&')).join('|');
  const eager = new RegExp(`^import (?!type\\b)[^'"]*['"](?:${names})(?:/[^'"]*)?['"]|\\brequire\\(['"](?:${names})`);
  return matchingLines(file, text, (line) => eager.test(line));
}

describe('packages loaded on first use', () => {
  it('catches a planted value import, and lets type imports and the loader be', () => {
    const planted = [
      "import ExcelJS from 'exceljs';",
      "import { createConnection } from 'mysql2/promise';",
      "import type OpenAI from 'openai';",
      "import type { S3Client } from '@aws-sdk/client-s3';",
      "import { z } from 'zod';",
    ].join('\n');
    expect(eagerImports('domain/x.ts', planted).map((l) => l.split(':')[1])).toEqual(['1', '2']);
    expect(eagerImports(LOADER, planted)).toEqual([]);
  });

  it('no service file imports one of them except the loader', () => {
    const found = sourceFiles(SOURCE_DIRS).flatMap((f) => eagerImports(f, fs.readFileSync(path.join(ROOT, f), 'utf8')));
    expect(found).toEqual([]);
  });

  it('building the API and the worker loads none of them, nor the migrations', () => {
    // a process of its own: jest's module registry is not Node's, and this file has loaded the list itself
    const script = [
      "require('./api/app');",
      "require('./worker/main');",
      'console.log(JSON.stringify(Object.keys(require.cache)));',
    ].join('');
    const loaded: string[] = JSON.parse(
      execFileSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: ROOT, encoding: 'utf8' }),
    );
    expect(loaded.some((f) => f.endsWith(path.join('api', 'app.ts')))).toBe(true);
    const lazy = [...LAZY_PACKAGES, ...MIGRATIONS].filter((p) =>
      loaded.some((f) => f.includes(`${path.sep}node_modules${path.sep}${p}${path.sep}`)),
    );
    expect(lazy).toEqual([]);
  });
});
