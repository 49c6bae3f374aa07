/**
 * The lint against super-linear regular expressions (docs/architecture.md#regular-expressions): ESLint's own
 * API lints planted patterns with the repository's configuration and must report them, every source folder
 * and the console get both rules as errors, and no file switches them off with a comment. In the service and
 * the console, a RegExp built from a variable (a pattern that may be a caller's) is an error too: it runs on RE2.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { sourceFiles } from './importGraph';

const ROOT = path.join(__dirname, '..', '..');
const RULES = ['regexp/no-super-linear-backtracking', 'regexp/no-super-linear-move'];
const SOURCE_DIRS = ['api', 'activities', 'domain', 'db', 'platform', 'workflows', 'worker', 'scripts'];
/** Where a pattern from a variable is refused too: the service and the console. */
const VARIABLE_PATTERN_RULE = 'no-restricted-syntax';
const CONSOLE_FILES = ['console/src/planted.ts', 'console/src/planted.tsx'];
const CONFIG_RULES = [...RULES, VARIABLE_PATTERN_RULE];

// ESLint loads eslint.config.mjs with a dynamic import, which jest's module sandbox refuses; a plain node
// process runs the same Node API (new ESLint, lintText, calculateConfigForFile) and answers in JSON.
const ESLINT_SCRIPT = `
const { ESLint } = require('eslint');
const path = require('node:path');
(async () => {
  const { texts, configFiles } = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
  const eslint = new ESLint({ cwd: process.cwd() });
  const reports = [];
  for (const { code, file } of texts) {
    const [result] = await eslint.lintText(code, { filePath: path.resolve(file) });
    reports.push(result.messages.filter((m) => m.severity === 2).map((m) => m.ruleId || m.message));
  }
  const severities = [];
  for (const file of configFiles) {
    const config = await eslint.calculateConfigForFile(path.resolve(file));
    severities.push(Object.fromEntries(${JSON.stringify(CONFIG_RULES)}.map((r) => [r, [].concat(config.rules[r])[0]])));
  }
  process.stdout.write(JSON.stringify({ reports, severities }));
})();
`;

function runEslint(texts: Array<{ code: string; file: string }>, configFiles: string[]) {
  const out = execFileSync(process.execPath, ['-e', ESLINT_SCRIPT], {
    cwd: ROOT,
    input: JSON.stringify({ texts, configFiles }),
    encoding: 'utf8',
  });
  return JSON.parse(out) as { reports: string[][]; severities: Array<Record<string, number>> };
}

const PLANTED: Array<[string, string, string]> = [
  ['nested quantifiers', 'export const nested = (s: string) => /^(a+)+$/.test(s);', RULES[0]],
  ['whitespace around a lazy group', 'export const braces = /\\s*\\{\\{\\s*(.*?)\\s*\\}\\}/;', RULES[0]],
  ['a pattern built at run time', "export const built = new RegExp('^(\\\\d+)*x$');", RULES[0]],
  ['an unanchored run that restarts', "export const trim = (s: string) => s.replace(/\\/+$/, '');", RULES[1]],
];
// A caller's pattern, as the console's rule preview once ran it, and the same through RegExp's call form.
const VARIABLE_PATTERNS = [
  "export const preview = (match: { regex: string }) => new RegExp(match.regex, 'u');",
  'export const called = (pattern: string) => RegExp(pattern);',
].join('\n');
const CONSTANT_PATTERNS = [
  "const DIGITS = '\\d+';",
  'export const built = new RegExp(`^${DIGITS}$`);',
  "export const literal = new RegExp('^x$', 'i');",
].join('\n');
const LINEAR = [
  'export const digits = /^\\d+$/;',
  "export const trim = (s: string) => s.replace(/(?<!\\/)\\/+$/, '');",
  'export const tag = /<[^<>]*>/g;',
].join('\n');

describe('the regular-expression lint', () => {
  let results: ReturnType<typeof runEslint>;
  beforeAll(() => {
    const texts = PLANTED.flatMap(([, code]) => [
      { code, file: 'test/architecture/planted.ts' },
      { code, file: 'bench/planted.ts' },
      { code, file: CONSOLE_FILES[1] },
    ]);
    texts.push({ code: LINEAR, file: 'test/architecture/planted.ts' });
    texts.push({ code: VARIABLE_PATTERNS, file: CONSOLE_FILES[0] });
    texts.push({ code: CONSTANT_PATTERNS, file: CONSOLE_FILES[0] });
    results = runEslint(texts, [...SOURCE_DIRS.map((dir) => `${dir}/planted.ts`), ...CONSOLE_FILES]);
  }, 120_000);

  it.each(PLANTED.map(([name, , rule], i) => [name, rule, i]))(
    'reports %s, in tests, the benchmark and the console too',
    (_name, rule, i) => {
      for (const at of [0, 1, 2]) expect(results.reports[3 * i + at]).toContain(rule);
    },
  );

  it('accepts the linear spelling of the same intent', () => {
    expect(results.reports[PLANTED.length * 3]).toEqual([]);
  });

  it('refuses a RegExp built from a variable in the console, and lets one built from constants be', () => {
    expect(results.reports[PLANTED.length * 3 + 1]).toEqual([VARIABLE_PATTERN_RULE, VARIABLE_PATTERN_RULE]);
    expect(results.reports[PLANTED.length * 3 + 2]).toEqual([]);
  });

  it('turns the rules on as errors in every source folder and in the console', () => {
    expect(results.severities).toEqual(
      [...SOURCE_DIRS, ...CONSOLE_FILES].map(() => Object.fromEntries(CONFIG_RULES.map((r) => [r, 2]))),
    );
  });

  it('is switched off by no comment anywhere', () => {
    const disabling = sourceFiles([...SOURCE_DIRS, 'test', 'bench']).filter((file) =>
      /eslint-disable[^\n]*regexp\//.test(fs.readFileSync(path.join(ROOT, file), 'utf8')),
    );
    expect(disabling).toEqual([]);
  });
});
